// A sandbox host: a child process of Baton that runs Anthropic's sandbox runtime for one network
// policy (hostProtocol.ts). Its own process because the runtime is a module-wide singleton (one
// configuration, one network proxy) that reads the process's working directory for the
// protections it adds itself; here the folder can be set for each command, and Baton's main
// process keeps none of that state. Requests are taken one at a time for the same reason. The
// network proxy it starts serves the sandboxed commands while they run, so the host lives until
// Baton stops it (or its parent goes away).

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";
import { getDefaultWritePaths, SandboxManager } from "@anthropic-ai/sandbox-runtime";
import { HostConfigVariable, type HostConfig, type HostMessage, type HostRequest } from "./hostProtocol.js";
import { seccompSetting } from "./packagedHelpers.js";

const send = (message: HostMessage, then?: () => void): void => {
  process.send?.(message, undefined, {}, then);
};

async function main(): Promise<void> {
  const config = JSON.parse(process.env[HostConfigVariable] ?? "null") as HostConfig | null;
  if (config === null || process.send === undefined) throw new Error("a sandbox host is started by Baton, with its configuration and an IPC channel");
  const network = config.network;
  // Any host: the runtime's lists take no "*", so the question it asks about an undecided host
  // is always answered yes. No host: no callback, so every undecided host is refused.
  const seccomp = seccompSetting(createRequire(import.meta.url).resolve("@anthropic-ai/sandbox-runtime"), process.platform, process.arch);
  await SandboxManager.initialize(
    {
      network: { allowedDomains: network.kind === "hosts" ? [...network.hosts] : [], deniedDomains: [] },
      filesystem: { denyRead: [], allowWrite: [], denyWrite: [] },
      ...(seccomp !== undefined ? { seccomp } : {}),
    },
    network.kind === "any" ? async () => true : undefined,
  );
  // Private to this user (mkdtemp makes it 0700): the sandboxes' temporary folder, and beside it
  // the scripts that start them, which no sandbox may write.
  const base = fs.mkdtempSync(path.join(os.tmpdir(), "baton-sandbox-"));
  const temporaryFolder = path.join(base, "tmp");
  const wrapsFolder = path.join(base, "wraps");
  fs.mkdirSync(temporaryFolder, { mode: 0o700 });
  fs.mkdirSync(wrapsFolder, { mode: 0o700 });
  const stop = (): void => {
    fs.rmSync(base, { recursive: true, force: true });
    void SandboxManager.reset().finally(() => process.exit(0));
  };
  process.on("disconnect", stop);
  process.on("SIGTERM", stop);

  let queue = Promise.resolve();
  process.on("message", (request: HostRequest) => {
    queue = queue.then(() => answer(request)).catch(() => undefined);
  });
  send({ op: "ready", temporaryFolder, wrapsFolder });
}

async function answer(request: HostRequest): Promise<void> {
  try {
    if (request.op === "release") {
      for (let i = 0; i < request.count; i++) SandboxManager.cleanupAfterCommand();
      send({ op: "reply", id: request.id, ok: true, value: "" });
      return;
    }
    process.chdir(request.cwd);
    const wrapped = await SandboxManager.wrapWithSandbox(request.command, undefined, {
      filesystem: { denyRead: [], allowWrite: [...request.allowWrite], denyWrite: [...request.denyWrite, ...ownWritePathsThere()] },
    });
    send({ op: "reply", id: request.id, ok: true, value: wrapped });
  } catch (error) {
    send({ op: "reply", id: request.id, ok: false, error: error instanceof Error ? error.message : String(error) });
  }
}

/**
 * The runtime lets every command write a few places of its own (`/tmp/claude`, npm's logs, Claude
 * Code's debug folder). Baton's sandbox writes its write roots and its own temporary folder only,
 * so those that exist are taken back; one that does not exist is never made writable.
 */
function ownWritePathsThere(): string[] {
  return getDefaultWritePaths().filter((p) => !p.startsWith("/dev/") && fs.existsSync(p));
}

main().catch((error: unknown) => {
  send({ op: "failed", error: error instanceof Error ? error.message : String(error) }, () => process.exit(1));
});
