// Permission requests land on the tool call they concern (found by tool_use id, which is unique;
// the asking subagent is found by agent id = task id), whether the request comes before the
// tool_use line (foreground subagents), after it (main agent), or the tool_use never comes on
// stdout (nested agents): then it waits, and the subagent's permissionHistory still shows it.

import type { PermissionCancelledEvent, PermissionDeniedEvent, PermissionRequestEvent, PermissionResolvedEvent, PolicyDecisionEvent } from "../../shared/events.js";
import type { PermissionState, SubagentRecord } from "../../shared/transcript.js";
import { editCall, findAnyCall } from "./edits.js";
import type { SessionModel } from "./session.js";
import { agentToolUseId, editRecordById } from "./subagentRecords.js";
import { statusForPermission } from "./toolCalls.js";

export function onPermissionRequest(s: SessionModel, ev: PermissionRequestEvent): void {
  const agentCall = ev.agentId === undefined ? undefined : agentToolUseId(s, ev.agentId, undefined);
  s.tree.permissions.set(ev.requestId, { toolUseId: ev.toolUseId, agentToolUseId: agentCall });
  setPermission(s, ev.toolUseId, { requestId: ev.requestId, state: "asked", decidedBy: undefined, message: undefined }, agentCall);
  if (agentCall !== undefined) {
    const entry = { requestId: ev.requestId, toolName: ev.toolName, toolUseId: ev.toolUseId, state: "asked" as const, decidedBy: undefined };
    editRecordById(s, agentCall, (r) => ({ ...r, permissionHistory: [...(r.permissionHistory ?? []), entry] }));
  }
}

export function onPermissionResolved(s: SessionModel, ev: PermissionResolvedEvent): void {
  const state: PermissionState = {
    requestId: ev.requestId,
    state: ev.behavior === "allow" ? "allowed" : "denied",
    decidedBy: ev.decidedBy,
    message: ev.message,
  };
  settle(s, ev.requestId, state);
}

/**
 * A call the CLI refused without asking (2.1.332 `system/permission_denied`: plan mode, auto
 * mode): denied on its card, with the CLI's reason, and in the refused subagent's history.
 */
export function onPermissionDenied(s: SessionModel, ev: PermissionDeniedEvent): void {
  const agentCall = ev.agentId === undefined ? undefined : agentToolUseId(s, ev.agentId, undefined);
  const decidedBy = ev.reasonType === undefined ? "claude-code" : `claude-code:${ev.reasonType}`;
  const requestId = `denied:${ev.toolUseId}`;
  setPermission(s, ev.toolUseId, { requestId, state: "denied", decidedBy, message: ev.reason }, agentCall);
  if (agentCall !== undefined) {
    const entry = { requestId, toolName: ev.toolName, toolUseId: ev.toolUseId, state: "denied" as const, decidedBy };
    editRecordById(s, agentCall, (r) => ({ ...r, permissionHistory: [...(r.permissionHistory ?? []), entry] }));
  }
}

/** Baton's policy decided a call through the hook: on its card, and in the deciding subagent's history. */
export function onPolicyDecision(s: SessionModel, ev: PolicyDecisionEvent): void {
  const agentCall = ev.agentId === undefined ? undefined : agentToolUseId(s, ev.agentId, undefined);
  const requestId = `policy:${ev.toolUseId}`;
  const state = ev.decision === "deny" ? ("denied" as const) : ("allowed" as const);
  const decidedBy = `policy:${ev.rule}`;
  setPermission(s, ev.toolUseId, { requestId, state, decidedBy, message: ev.message }, agentCall);
  if (agentCall !== undefined) {
    const entry = { requestId, toolName: ev.toolName, toolUseId: ev.toolUseId, state, decidedBy };
    editRecordById(s, agentCall, (r) => ({ ...r, permissionHistory: [...(r.permissionHistory ?? []), entry] }));
  }
}

export function onPermissionCancelled(s: SessionModel, ev: PermissionCancelledEvent): void {
  settle(s, ev.requestId, { requestId: ev.requestId, state: "cancelled", decidedBy: undefined, message: undefined });
}

function settle(s: SessionModel, requestId: string, state: PermissionState): void {
  const link = s.tree.permissions.get(requestId);
  if (link === undefined) return;
  setPermission(s, link.toolUseId, state, link.agentToolUseId);
  if (link.agentToolUseId !== undefined) editRecordById(s, link.agentToolUseId, (r) => withHistoryState(r, state));
}

/** `agentToolUseId`: the asking subagent's call, whose record holds the call (looked at first, not every record). */
function setPermission(s: SessionModel, toolUseId: string, state: PermissionState, agentToolUseId: string | undefined): void {
  const node = findAnyCall(s, toolUseId, agentToolUseId);
  if (node === undefined) {
    s.tree.earlyPermissions.set(toolUseId, state);
    return;
  }
  editCall(s, node, (call) => {
    // A result already decided the status; only a denial can still explain it.
    const status = call.result === undefined ? statusForPermission(state.state, call.status) : state.state === "denied" && call.result.isError ? "denied" : call.status;
    return { ...call, status, permission: state };
  });
}

function withHistoryState(record: SubagentRecord, state: PermissionState): SubagentRecord {
  const history = record.permissionHistory;
  if (history === undefined) return record;
  return {
    ...record,
    permissionHistory: history.map((h) =>
      h.requestId === state.requestId ? { ...h, state: state.state, decidedBy: state.decidedBy } : h,
    ),
  };
}
