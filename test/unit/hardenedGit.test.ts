// The rules of hardenedGit.ts read alone: which overrides the drivers a config names get, the
// environment git starts with, and a driver whose name holds "=" (which `-c name=value` would split
// in the wrong place) turned off in a real repository.

import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { listTabWorktrees } from "../../src/main/core/tabWorktrees.js";
import { driverOverrides, FailingShellCommand, hardenedEnv, Nowhere, parseConfigKeys } from "../../src/main/worktrees/hardenedGit.js";
import { git } from "../support/git.js";
import { tempDirs } from "../support/tempDirs.js";

const tempDir = tempDirs("baton-hardened-");

describe("overrides for the drivers a config names", () => {
  it("turns off filters, diff drivers' textconv and command, merge drivers and config hooks by name, and nothing else", () => {
    const keys = parseConfigKeys(
      ["filter.lfs.clean\ngit-lfs clean -- %f", "filter.a.b.process\nx", "diff.Tex.textconv\nx", "diff.tex.xfuncname\n^x", "merge.M.driver\nx", "hook.lint.event\npre-commit", "hook.jobs\n4", "diff.external\nx", "filter.bare.required", "user.name\nA"].join("\0") + "\0",
    );
    expect(keys).toContain("filter.bare.required");
    const rules = Object.fromEntries(driverOverrides(keys).map((r) => [r.key, r.value]));
    expect(rules).toEqual({
      "filter.lfs.clean": "",
      "filter.lfs.smudge": "",
      "filter.lfs.process": "",
      "filter.lfs.required": "false",
      "filter.a.b.clean": "",
      "filter.a.b.smudge": "",
      "filter.a.b.process": "",
      "filter.a.b.required": "false",
      "filter.bare.clean": "",
      "filter.bare.smudge": "",
      "filter.bare.process": "",
      "filter.bare.required": "false",
      // Subsections keep their case: git's driver names are case-sensitive.
      "diff.Tex.textconv": FailingShellCommand,
      "merge.M.driver": FailingShellCommand,
      "hook.lint.enabled": "false",
    });
  });
});

describe("the environment git starts with", () => {
  it("keeps where git and the person's config are, drops every other variable, and carries the overrides (never safe.directory)", () => {
    const env = hardenedEnv(
      { PATH: "/usr/bin", HOME: "/home/user", LC_CTYPE: "C.UTF-8", GIT_DIR: "/elsewhere", GIT_CONFIG_GLOBAL: "/elsewhere/config", SSH_ASKPASS: "/bin/x", LD_PRELOAD: "/x.so", GIT_EXTERNAL_DIFF: "/x" },
      { overrides: [{ key: "filter.x.clean", value: "" }], indexFile: "/tmp/index" },
    );
    expect(env).toMatchObject({ PATH: "/usr/bin", HOME: "/home/user", LC_CTYPE: "C.UTF-8", LC_ALL: "C", GIT_PAGER: "cat", GIT_ALLOW_PROTOCOL: "", GIT_INDEX_FILE: "/tmp/index" });
    for (const dropped of ["GIT_DIR", "GIT_CONFIG_GLOBAL", "SSH_ASKPASS", "LD_PRELOAD", "GIT_EXTERNAL_DIFF"]) expect(env).not.toHaveProperty(dropped);
    const count = Number(env["GIT_CONFIG_COUNT"]);
    const rules = Array.from({ length: count }, (_, i) => [env[`GIT_CONFIG_KEY_${i}`], env[`GIT_CONFIG_VALUE_${i}`]]);
    expect(rules).toContainEqual(["core.hooksPath", Nowhere]);
    expect(rules).toContainEqual(["core.fsmonitor", ""]);
    expect(rules.at(-1)).toEqual(["filter.x.clean", ""]);
    expect(rules.map(([key]) => key?.toLowerCase())).not.toContain("safe.directory");
  });
});

describe("a driver named with '='", () => {
  it("is turned off too: plain git runs it, Baton's listing does not", async () => {
    const root = tempDir();
    const repo = path.join(root, "repo");
    const marker = path.join(root, "ran");
    fs.mkdirSync(repo);
    git(repo, "init", "-q", "-b", "main");
    fs.writeFileSync(path.join(repo, ".gitattributes"), "*.x filter=a=b\n");
    fs.writeFileSync(path.join(repo, "f.x"), "content\n");
    git(repo, "add", "-A");
    git(repo, "commit", "-q", "-m", "First");
    const program = path.join(root, "clean");
    fs.writeFileSync(program, `#!/bin/sh\n: > '${marker}'\nexec cat\n`, { mode: 0o755 });
    fs.appendFileSync(path.join(repo, ".git", "config"), `[filter "a=b"]\n\tclean = ${program}\n`);
    const touch = (seconds: number): void => fs.utimesSync(path.join(repo, "f.x"), new Date(), new Date(Date.now() + seconds * 1000));

    touch(5);
    spawnSync("git", ["status", "--porcelain"], { cwd: repo, stdio: "ignore" });
    expect(fs.existsSync(marker)).toBe(true);
    fs.rmSync(marker);

    touch(10);
    const listing = await listTabWorktrees({ cwd: repo, liveSessionIds: new Set<string>() });
    expect(listing.worktrees[0]?.dirt?.files).toEqual([]);
    expect(fs.existsSync(marker)).toBe(false);
  });
});
