// The OS sandbox's plan for each preset (issue 31), as data: write roots, the files protected
// inside them, the temporary folder, the network; and what "no sandbox here" says.
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Preset } from "../../src/shared/policy.js";
import { networkPatternProblem } from "../../src/shared/policy.js";
import { builtinPresetSet } from "../../src/main/policy/presets/builtinPresets.js";
import { networkKey, protectedPathsNow, sandboxEnvironment, sandboxPlan, withEnvironment, type DotGitKind } from "../../src/main/sandbox/sandboxPlan.js";
import { sandboxSupport } from "../../src/main/sandbox/sandboxSupport.js";

const presets = builtinPresetSet().presets;
const preset = (name: string): Preset => presets.find((p) => p.name === name)!;
const workspace = "/home/user/code/x";
const home = "/home/user";

describe("sandboxPlan", () => {
  it("gives a writing preset its workspace, a worktree agent only its worktree, a reading one nothing", () => {
    expect(sandboxPlan({ preset: preset("coder"), workspace, home }).writeRoots).toEqual([workspace]);
    const worktree = `${workspace}/.claude/worktrees/agent-a1`;
    expect(sandboxPlan({ preset: preset("worker"), workspace, worktree, home }).writeRoots).toEqual([worktree]);
    expect(sandboxPlan({ preset: preset("scout"), workspace, home }).writeRoots).toEqual([]);
    expect(sandboxPlan({ preset: preset("analyst"), workspace, home }).writeRoots).toEqual([]);
  });

  it("protects what runs code later inside every write root: git's config and hooks, Claude Code's settings, .mcp.json, shell start-up files", () => {
    const plan = sandboxPlan({ preset: preset("coder"), workspace, home });
    for (const name of [".git/config", ".git/hooks", ".gitmodules", ".claude/settings.json", ".claude/settings.local.json", ".mcp.json", ".bashrc", ".zshrc", ".profile"]) {
      expect(plan.protectedPaths).toContain(path.join(workspace, name));
    }
  });

  it("protects Baton's own files when they are inside a write root, and the home folder's secrets when the root takes in the home folder", () => {
    const inRoot = sandboxPlan({ preset: preset("coder"), workspace: home, home, batonFiles: [`${home}/.config/baton`, "/etc/baton"] });
    expect(inRoot.protectedPaths).toContain(`${home}/.config/baton`);
    expect(inRoot.protectedPaths).not.toContain("/etc/baton");
    expect(inRoot.protectedPaths).toEqual(expect.arrayContaining([`${home}/.ssh`, `${home}/.claude`, `${home}/.claude.json`]));
    expect(sandboxPlan({ preset: preset("coder"), workspace, home }).protectedPaths).not.toContain(`${home}/.ssh`);
  });

  it("gives the temporary folder to presets that write or run more than reading commands, never to the scout", () => {
    expect(sandboxPlan({ preset: preset("scout"), workspace, home }).temporaryFolder).toBe(false);
    expect(sandboxPlan({ preset: preset("analyst"), workspace, home }).temporaryFolder).toBe(true);
    expect(sandboxPlan({ preset: preset("coder"), workspace, home }).temporaryFolder).toBe(true);
  });

  it("reads each preset's network: none, any host, or its hosts (one sandbox host per policy)", () => {
    expect(sandboxPlan({ preset: preset("scout"), workspace, home }).network).toEqual({ kind: "none" });
    expect(sandboxPlan({ preset: preset("coder"), workspace, home }).network).toEqual({ kind: "none" });
    expect(sandboxPlan({ preset: preset("analyst"), workspace, home }).network).toEqual({ kind: "any" });
    const worker = sandboxPlan({ preset: preset("worker"), workspace, home }).network;
    expect(worker.kind).toBe("hosts");
    expect(worker.kind === "hosts" ? worker.hosts : []).toContain("registry.npmjs.org");
    expect(networkKey({ kind: "hosts", hosts: ["a.example.com", "b.example.com"] })).not.toBe(networkKey({ kind: "hosts", hosts: ["a.example.com"] }));
  });
});

describe("protectedPathsNow", () => {
  const plan = sandboxPlan({ preset: preset("coder"), workspace, home });
  const kinds = (kind: DotGitKind) => () => kind;

  it("protects a repository's config and hooks; a worktree's .git pointer itself; nothing of git where there is no .git", () => {
    expect(protectedPathsNow(plan, kinds("directory"))).toEqual(expect.arrayContaining([`${workspace}/.git/config`, `${workspace}/.git/hooks`]));
    const pointer = protectedPathsNow(plan, kinds("file"));
    expect(pointer).toContain(`${workspace}/.git`);
    expect(pointer).not.toContain(`${workspace}/.git/config`);
    const none = protectedPathsNow(plan, kinds("absent"));
    expect(none.some((p) => p.includes("/.git/") || p.endsWith("/.git"))).toBe(false);
    expect(none).toContain(`${workspace}/.mcp.json`);
  });
});

describe("the sandboxed command's variables", () => {
  it("points the temporary folder and the toolchains' caches into the sandbox's own folder, and keeps the command's text as written", () => {
    const coder = sandboxPlan({ preset: preset("coder"), workspace, home });
    const env = sandboxEnvironment(coder, "/tmp/baton-sandbox-1");
    expect(env).toMatchObject({ TMPDIR: "/tmp/baton-sandbox-1", GOCACHE: "/tmp/baton-sandbox-1/cache/go-build" });
    expect(env["GOMODCACHE"]).toBeUndefined(); // no network: the person's module cache is read, not replaced
    expect(sandboxEnvironment(sandboxPlan({ preset: preset("worker"), workspace, home }), "/t")["GOMODCACHE"]).toBe("/t/go-mod");
    expect(sandboxEnvironment(sandboxPlan({ preset: preset("scout"), workspace, home }), "/t")).toEqual({});
    const line = withEnvironment("echo 'it''s' && ls", { TMPDIR: "/tmp/it's" });
    expect(line).toBe("export TMPDIR='/tmp/it'\\''s'\necho 'it''s' && ls");
  });
});

describe("networkPatternProblem", () => {
  it("takes hosts, subdomain wildcards, ports and * alone; refuses what is too broad or not a host", () => {
    for (const ok of ["registry.npmjs.org", "*.pythonhosted.org", "example.com:8443", "*"]) expect(networkPatternProblem(ok), ok).toBeUndefined();
    for (const bad of ["*.com", "http://example.com", "exa mple.com", "localhost", "example.com:0", "-bad.example.com", ""]) expect(networkPatternProblem(bad), bad).toBeDefined();
  });
});

describe("sandboxSupport", () => {
  it("names what to install on Linux, and which systems have no sandbox", () => {
    const missing = sandboxSupport({ platform: "linux", found: new Set(["rg"]) });
    expect(missing).toMatchObject({ ok: false, missing: ["bubblewrap", "socat"] });
    expect(missing.message).toContain("apt-get install bubblewrap socat");
    expect(sandboxSupport({ platform: "linux", found: new Set(["bwrap", "socat", "rg"]) }).ok).toBe(true);
    const blocked = sandboxSupport({ platform: "linux", found: new Set(["bwrap", "socat", "rg"]), bwrapFailure: "setting up uid map: Permission denied" });
    expect(blocked.ok).toBe(false);
    expect(blocked.message).toContain("user namespaces");
    expect(sandboxSupport({ platform: "darwin", found: new Set(["sandbox-exec"]) }).ok).toBe(true);
    expect(sandboxSupport({ platform: "win32", found: new Set() })).toMatchObject({ ok: false });
  });
});
