import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bufferIO } from "../../src/main/commands/commandIO.js";
import { run } from "../../src/main/commands/doctor.js";

let root: string;
beforeAll(() => {
  root = mkdtempSync(path.join(os.tmpdir(), "baton-doctor-"));
  mkdirSync(path.join(root, "projects", "-home-user-code-a"), { recursive: true });
  mkdirSync(path.join(root, "projects", "-home-user-code-b"), { recursive: true });
  const fake = path.join(root, "claude");
  writeFileSync(fake, "#!/bin/sh\necho '2.1.197 (Claude Code)'\n");
  chmodSync(fake, 0o755);
  const broken = path.join(root, "broken-claude");
  writeFileSync(broken, "#!/bin/sh\necho 'segfault-ish' >&2\nexit 7\n");
  chmodSync(broken, 0o755);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("baton doctor", () => {
  it("reports the claude path, how it was found, its version, the projects dir and node", async () => {
    const io = bufferIO();
    const code = await run(["--claude", path.join(root, "claude"), "--projects-dir", path.join(root, "projects"), "--json"], io);
    const report = JSON.parse(io.out());
    expect(code).toBe(0);
    expect(report.claude).toMatchObject({ found: true, path: path.join(root, "claude"), source: "option", version: "2.1.197" });
    expect(report.projects).toMatchObject({ dir: path.join(root, "projects"), exists: true, projectCount: 2 });
    expect(report.node.version).toBe(process.versions.node);
  });

  it("exits 1 and says what is wrong when claude is missing", async () => {
    const io = bufferIO();
    const code = await run(["--claude", path.join(root, "missing"), "--projects-dir", path.join(root, "nowhere")], io);
    expect(code).toBe(1);
    expect(io.out()).toContain("NOT FOUND");
    expect(io.out()).toMatch(/problem: claude not usable at .*missing \(missing\), set by --claude/);
    expect(io.out()).toMatch(/nowhere.*does not exist/);
  });

  it("exits 1 when claude cannot report its version", async () => {
    const io = bufferIO();
    const code = await run(["--claude", path.join(root, "broken-claude"), "--projects-dir", path.join(root, "projects")], io);
    expect(code).toBe(1);
    expect(io.out()).toContain("segfault-ish");
  });

  it("rejects unknown options with usage (exit 2)", async () => {
    const io = bufferIO();
    expect(await run(["--bogus"], io)).toBe(2);
    expect(io.err()).toContain("Usage: baton doctor");
  });
});
