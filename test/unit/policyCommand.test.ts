// `baton policy`: the engine's verdict for one call, the presets in force, and the reset, read
// from a real settings folder (presets.json and rules.json beside settings.json).

import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { bufferIO } from "../../src/main/commands/commandIO.js";
import { run } from "../../src/main/commands/policy.js";
import { tempDirs } from "../support/tempDirs.js";

const tempDir = tempDirs("baton-policy-cmd-", "all");
let dir: string;
let settings: string;
let cwd: string;

beforeAll(() => {
  dir = tempDir();
  settings = path.join(dir, "config", "settings.json");
  cwd = path.join(dir, "code", "x");
  fs.mkdirSync(cwd, { recursive: true });
  fs.mkdirSync(path.dirname(settings), { recursive: true });
});

async function policy(...args: string[]) {
  const io = bufferIO();
  const code = await run([...args, "--settings", settings], io);
  return { code, out: io.out(), err: io.err() };
}

describe("baton policy", () => {
  it("prints the verdict, its rule and the model's message; --json as the issue says", async () => {
    const npm = await policy("coder", "Bash", JSON.stringify({ command: "go test ./... && npm i x" }), "--cwd", cwd, "--orchestration", "--json");
    expect(npm.code).toBe(0);
    expect(JSON.parse(npm.out)).toEqual({ decision: "deny", rule: "preset:coder/exec", message: expect.stringContaining("coder may not run `npm i x`") });
    const log = await policy("analyst", "Bash", JSON.stringify({ command: "git log" }), "--cwd", cwd, "--orchestration");
    expect(log.out).toBe("allow\nrule: preset:analyst\nmessage: analyst's sandbox allows it.\n");
    const outside = await policy("coder", "Edit", JSON.stringify({ file_path: "/etc/hosts", old_string: "a", new_string: "b" }), "--cwd", cwd, "--orchestration", "--json");
    expect(JSON.parse(outside.out)).toMatchObject({ decision: "deny", rule: "preset:coder/write" });
  });

  it("without orchestration mode, applies only the person's rules (here: none, so ask)", async () => {
    const { out } = await policy("coder", "Bash", JSON.stringify({ command: "npm i x" }), "--cwd", cwd, "--json");
    expect(JSON.parse(out)).toMatchObject({ decision: "ask", rule: "default:ask" });
    const main = await policy("main", "Bash", JSON.stringify({ command: "ls" }), "--cwd", cwd, "--orchestration", "--json");
    expect(JSON.parse(main.out)).toMatchObject({ decision: "ask" });
  });

  it("applies the person's rules for the project in --cwd", async () => {
    const rules = { version: 1, rules: [{ behavior: "deny", rule: "Bash(git push:*)", scope: "project", scopeKey: cwd, origin: "file", createdAt: "2026-12-01T00:00:00.000Z" }] };
    fs.writeFileSync(path.join(path.dirname(settings), "rules.json"), JSON.stringify(rules));
    try {
      const { out } = await policy("main", "Bash", JSON.stringify({ command: "git push origin main" }), "--cwd", cwd, "--json");
      expect(JSON.parse(out)).toMatchObject({ decision: "deny", rule: "rule:deny Bash(git push:*) (project)" });
      const elsewhere = await policy("main", "Bash", JSON.stringify({ command: "git push origin main" }), "--cwd", dir, "--json");
      expect(JSON.parse(elsewhere.out)).toMatchObject({ decision: "ask" });
    } finally {
      fs.rmSync(path.join(path.dirname(settings), "rules.json"));
    }
  });

  it("lists the presets and their source; a broken presets file is named, the built-ins stay, and --reset-presets mends it", async () => {
    const listed = await policy("--list", "--json");
    expect(JSON.parse(listed.out)).toMatchObject({ orchestration: false, source: "built-in", presets: [{ name: "scout" }, { name: "analyst" }, { name: "coder" }, { name: "worker" }, { name: "coordinator" }] });
    const file = path.join(path.dirname(settings), "presets.json");
    fs.writeFileSync(file, "[");
    const broken = await policy("--list");
    expect(broken.out).toContain("Presets from built-in");
    expect(broken.err).toContain(`${file}: not valid JSON`);
    expect((await policy("--reset-presets")).code).toBe(0);
    const mended = await policy("--list", "--json");
    expect(mended.err).toBe("");
    expect(JSON.parse(mended.out)).toMatchObject({ source: file });
  });

  it("--list names a config file it refuses (presets 0666, rules group-writable, settings too), and none of them applies", async () => {
    const config = path.dirname(settings);
    const presets = path.join(config, "presets.json");
    const rules = path.join(config, "rules.json");
    const files = [presets, rules, settings];
    fs.writeFileSync(presets, "{}");
    fs.chmodSync(presets, 0o666);
    fs.writeFileSync(rules, JSON.stringify({ version: 1, rules: [{ behavior: "deny", rule: "Bash(git push:*)", scope: "everywhere", origin: "file", createdAt: "2026-12-01T00:00:00.000Z" }] }));
    fs.chmodSync(rules, 0o660);
    fs.writeFileSync(settings, JSON.stringify({ orchestration: true }));
    fs.chmodSync(settings, 0o646);
    try {
      const listed = await policy("--list");
      expect(listed.out).toContain("Presets from built-in; orchestration mode is off.");
      expect(listed.out).toContain(`Problem: ${presets} is writable by others (mode 0666): Baton does not read it (the built-in presets are in force); run chmod 600 ${presets}`);
      expect(listed.out).toContain(`Problem: ${rules} is writable by its group (mode 0660): Baton does not read it (none of its rules are in force); run chmod 600 ${rules}`);
      expect(listed.out).toContain(`Problem: ${settings} is writable by others (mode 0646): Baton does not read it (Baton's settings are at their defaults)`);
      const json = JSON.parse((await policy("--list", "--json")).out) as Record<string, unknown>;
      expect(json).toMatchObject({
        orchestration: false,
        source: "built-in",
        problem: expect.stringContaining(`${presets} is writable by others`),
        rulesProblem: expect.stringContaining(`${rules} is writable by its group`),
        settingsProblem: expect.stringContaining(`${settings} is writable by others`),
      });
      // The refused rule does not decide.
      const push = await policy("main", "Bash", JSON.stringify({ command: "git push origin main" }), "--cwd", cwd, "--json");
      expect(JSON.parse(push.out)).toMatchObject({ decision: "ask" });
      expect(push.err).toContain(`${rules} is writable by its group`);
    } finally {
      for (const file of files) fs.rmSync(file, { force: true });
    }
  });

  it("refuses input that is not a JSON object, and a call without its parts, with usage", async () => {
    expect(await policy("coder", "Bash", "{not json")).toMatchObject({ code: 2, err: expect.stringContaining("not JSON") });
    expect(await policy("coder", "Bash", "[1]")).toMatchObject({ code: 2, err: expect.stringContaining("JSON object") });
    expect(await policy("coder")).toMatchObject({ code: 2, err: expect.stringContaining("give the agent, the tool and its input") });
  });
});
