// The OS sandbox in an installed Baton's layout. electron-builder puts the app in
// resources/app.asar and keeps the sandbox runtime's seccomp helper as a real file in
// resources/app.asar.unpacked/ (electron-builder.yml's asarUnpack; electronBuilderFiles.test.ts
// checks it is packed so). Bubblewrap starts that helper by its path, and cannot from inside the
// archive: the sandbox host must hand the runtime the unpacked path (packagedHelpers.ts).
//
// Without Electron there is no archive to read, so the layout is made of folders with the same
// names: the built host (out/main) and the runtime's own files under …/app.asar/, the helper only
// under …/app.asar.unpacked/, as bubblewrap would find them. The real host then wraps a command
// with the real runtime and bubblewrap runs it.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hostStartOptions, SandboxHostProcess } from "../../src/main/sandbox/sandboxHostProcess.js";
import { tempDirs } from "../support/tempDirs.js";
import { ensureMainBuilt, repoRoot } from "../support/ui/buildRenderer.js";

const tempDir = tempDirs("baton-installed-", "all");
const RUNTIME = path.join("node_modules", "@anthropic-ai", "sandbox-runtime");
const arch = process.arch === "arm64" ? "arm64" : "x64";
const HELPER = path.join(RUNTIME, "vendor", "seccomp", arch, "apply-seccomp");

let resources: string;
let host: SandboxHostProcess;

/** resources/app.asar (a folder here) with the built main and the runtime; the helper only beside it. */
function installedLayout(): string {
  const root = path.join(tempDir(), "Baton", "resources");
  const app = path.join(root, "app.asar");
  fs.cpSync(ensureMainBuilt(), path.join(app, "out", "main"), { recursive: true });
  fs.copyFileSync(path.join(repoRoot, "package.json"), path.join(app, "package.json"));
  // The runtime's files are copied (a link would resolve back into the repository); its own
  // dependencies are linked, where they are is no matter here.
  const runtime = path.join(repoRoot, RUNTIME);
  for (const part of ["package.json", "dist", "node_modules"]) fs.cpSync(path.join(runtime, part), path.join(app, RUNTIME, part), { recursive: true });
  const pkg = JSON.parse(fs.readFileSync(path.join(runtime, "package.json"), "utf8")) as { dependencies: Record<string, string> };
  for (const dep of Object.keys(pkg.dependencies)) {
    if (fs.existsSync(path.join(app, RUNTIME, "node_modules", dep))) continue;
    fs.mkdirSync(path.dirname(path.join(app, "node_modules", dep)), { recursive: true });
    fs.symlinkSync(path.join(repoRoot, "node_modules", dep), path.join(app, "node_modules", dep));
  }
  const unpackedHelper = path.join(root, "app.asar.unpacked", HELPER);
  fs.mkdirSync(path.dirname(unpackedHelper), { recursive: true });
  fs.copyFileSync(path.join(repoRoot, HELPER), unpackedHelper);
  fs.chmodSync(unpackedHelper, 0o755);
  return root;
}

function run(command: string, cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn("bash", ["-c", command], { cwd, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

beforeAll(() => {
  resources = installedLayout();
  host = new SandboxHostProcess({ network: { kind: "none" }, entry: pathToFileURL(path.join(resources, "app.asar", "out", "main", "sandboxHost.js")) });
});

afterAll(async () => {
  await host.stop();
});

describe("the sandbox host in an installed app", () => {
  it("starts beside app.asar, not in its own folder inside it (no process can start inside a file)", () => {
    const resourcesDir = path.join(path.sep, "opt", "Baton", "resources");
    const installed = pathToFileURL(path.join(resourcesDir, "app.asar", "out", "main", "sandboxHost.js"));
    expect(hostStartOptions(installed)).toEqual({ execArgv: [], cwd: resourcesDir });
    const built = pathToFileURL(path.join(repoRoot, "out", "cli", "sandboxHost.js"));
    expect(hostStartOptions(built)).toEqual({ execArgv: [], cwd: path.join(repoRoot, "out", "cli") });
    const sources = pathToFileURL(path.join(repoRoot, "src", "main", "sandbox", "sandboxHost.ts"));
    expect(hostStartOptions(sources)).toEqual({ execArgv: ["--import", "tsx"], cwd: path.join(repoRoot, "src", "main", "sandbox") });
  });
});

describe.runIf(process.platform === "linux")("the sandbox in an installed app (Linux)", () => {
  it("runs a command under bubblewrap with the seccomp helper from app.asar.unpacked", async () => {
    const workspace = tempDir();
    const folders = await host.ready;
    const wrapped = await host.wrap({ command: "echo made > inside.txt && cat inside.txt", cwd: workspace, allowWrite: [workspace, folders.temporaryFolder], denyWrite: [] });
    const helper = path.join(resources, "app.asar.unpacked", HELPER);
    expect(wrapped).toContain(helper);
    expect(wrapped).not.toContain(path.join(resources, "app.asar", HELPER));
    const result = await run(wrapped, workspace);
    expect(result.stderr).toBe("");
    expect(result.stdout.trim()).toBe("made");
    expect(fs.readFileSync(path.join(workspace, "inside.txt"), "utf8").trim()).toBe("made");
    await host.release(1);
  });
});
