// One session's side of the OS sandbox (issue 31): every Bash call a preset agent may make is
// rewritten to run inside the sandbox its preset describes (the PreToolUse hook's `updatedInput`,
// or the allow answer of a permission request); the model and the transcript keep the command it
// wrote (docs/protocol-notes.md). The command's lease ends when the CLI reports it done (the
// PostToolUse and PostToolUseFailure hooks); a background command's only when the session stops.
// Where no sandbox can run, a preset's Bash is refused with what to install, unless the person
// chose "policy check only".

import type { JsonObject } from "../../shared/protocol/messages.js";
import type { Preset, SandboxProtection } from "../../shared/policy.js";
import { describeNetwork, sandboxPlan, type SandboxPlan } from "./sandboxPlan.js";
import { SandboxUnavailableError, type SandboxLease, type SandboxService } from "./sandboxService.js";

export interface SessionSandboxOptions {
  /** Absent: this Baton has no sandbox (its preset agents' Bash is refused). */
  readonly service: SandboxService | undefined;
  /** The session's working directory: a writing preset's write root. */
  readonly workspace: string;
  readonly home: string;
  /** Baton's own files, never writable from a sandbox. */
  readonly batonFiles?: readonly string[];
  /** The person chose "policy check only": no command is wrapped. */
  readonly policyCheckOnly: () => boolean;
}

export interface BashCall {
  readonly preset: Preset;
  readonly input: JsonObject;
  readonly toolUseId: string;
  /** Where the CLI runs the agent's commands (the hook's `cwd`). */
  readonly agentCwd?: string;
  /** The agent's own worktree (policy/agentWorktree.ts): then its only write root. */
  readonly worktree?: string;
}

export type BashGuard =
  | { readonly kind: "sandboxed"; readonly input: JsonObject; readonly protection: SandboxProtection; readonly note: string }
  | { readonly kind: "unprotected"; readonly protection: SandboxProtection; readonly note: string }
  | { readonly kind: "refused"; readonly rule: string; readonly message: string };

export class SessionSandbox {
  private readonly leases = new Map<string, SandboxLease>();
  private readonly background: SandboxLease[] = [];
  private closed = false;

  constructor(private readonly options: SessionSandboxOptions) {}

  async guard(call: BashCall): Promise<BashGuard> {
    const command = call.input["command"];
    if (typeof command !== "string") return { kind: "refused", rule: `preset:${call.preset.name}/exec`, message: "the Bash call has no command" };
    if (this.options.policyCheckOnly()) {
      return { kind: "unprotected", protection: "policy-only", note: "runs without the OS sandbox: the person chose policy check only" };
    }
    const plan = sandboxPlan({
      preset: call.preset,
      workspace: this.options.workspace,
      ...(call.worktree !== undefined ? { worktree: call.worktree } : {}),
      home: this.options.home,
      ...(this.options.batonFiles !== undefined ? { batonFiles: this.options.batonFiles } : {}),
    });
    const service = this.options.service;
    if (service === undefined) return { kind: "refused", rule: "sandbox:unavailable", message: `${call.preset.name}'s commands run only inside the OS sandbox, and this Baton has none` };
    let lease: SandboxLease;
    try {
      lease = await service.wrap(plan, command, plan.writeRoots[0] ?? call.agentCwd ?? this.options.workspace);
    } catch (error) {
      if (error instanceof SandboxUnavailableError) {
        return {
          kind: "refused",
          rule: "sandbox:unavailable",
          message: `${call.preset.name}'s commands run only inside the OS sandbox, and none can run on this machine (${error.support.message}); the person can install it, or turn on "policy check only" in Baton`,
        };
      }
      return { kind: "refused", rule: "sandbox:failed", message: `Baton could not put this command in ${call.preset.name}'s OS sandbox (${error instanceof Error ? error.message : String(error)}); it was not run` };
    }
    if (this.closed) {
      lease.release();
      return { kind: "refused", rule: "sandbox:failed", message: "the session is stopping; the command was not run" };
    }
    this.keep(call, lease);
    return { kind: "sandboxed", input: { ...call.input, command: lease.command }, protection: "os-sandbox", note: describePlan(plan) };
  }

  /** The CLI reports the call done (PostToolUse, PostToolUseFailure): its sandbox may be cleaned up. */
  finished(toolUseId: string): void {
    const lease = this.leases.get(toolUseId);
    if (lease === undefined) return;
    this.leases.delete(toolUseId);
    lease.release();
  }

  /** The session stops: every lease ends, background commands' included. */
  close(): void {
    this.closed = true;
    for (const lease of [...this.leases.values(), ...this.background]) lease.release();
    this.leases.clear();
    this.background.length = 0;
  }

  private keep(call: BashCall, lease: SandboxLease): void {
    // A background command outlives its tool call: the CLI reports the call done at once.
    if (call.input["run_in_background"] === true) {
      this.background.push(lease);
      return;
    }
    this.leases.get(call.toolUseId)?.release();
    this.leases.set(call.toolUseId, lease);
  }
}

function describePlan(plan: SandboxPlan): string {
  const places = [...plan.writeRoots, ...(plan.temporaryFolder ? ["its temporary folder"] : [])];
  const writes = places.length === 0 ? "writes nothing" : `writes only ${places.join(" and ")}`;
  return `runs in the OS sandbox: ${writes}; network: ${describeNetwork(plan.network)}`;
}
