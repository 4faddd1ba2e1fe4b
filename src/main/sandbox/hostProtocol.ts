// The messages between Baton and a sandbox host (sandboxHost.ts), a child process that runs
// Anthropic's sandbox runtime for one network policy. Serialisable data over Node's IPC channel.

import type { NetworkPolicy } from "./sandboxPlan.js";

/** What a host is started with (in BATON_SANDBOX_HOST, JSON). */
export interface HostConfig {
  readonly network: NetworkPolicy;
}

export const HostConfigVariable = "BATON_SANDBOX_HOST";

export type HostRequest =
  | {
      readonly id: number;
      readonly op: "wrap";
      /** The command as it will run inside the sandbox (its variables already set). */
      readonly command: string;
      /** The folder the runtime resolves relative paths and its own protections against. */
      readonly cwd: string;
      readonly allowWrite: readonly string[];
      readonly denyWrite: readonly string[];
    }
  /** `count` commands wrapped earlier have ended (the runtime's clean-up of its mount points). */
  | { readonly id: number; readonly op: "release"; readonly count: number };

export type HostMessage =
  /** The host's private folders: the sandboxes' temporary folder, and where their wrapped commands are kept (no sandbox may write there). */
  | { readonly op: "ready"; readonly temporaryFolder: string; readonly wrapsFolder: string }
  | { readonly op: "failed"; readonly error: string }
  | { readonly op: "reply"; readonly id: number; readonly ok: true; readonly value: string }
  | { readonly op: "reply"; readonly id: number; readonly ok: false; readonly error: string };
