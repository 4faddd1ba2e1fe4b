// A waiting permission request, shown on the card of the agent that asked. AskUserQuestion and
// ExitPlanMode arrive as permission requests too and get their own forms.
import { useState } from "react";
import type { PendingPermission, PermissionAnswer } from "../../shared/api.js";
import type { Json } from "../../shared/protocol/messages.js";
import type { PermissionState } from "../../shared/transcript.js";
import { api, report } from "../apiClient.js";
import { toolSummary } from "../util/format.js";
import { permissionBadgeText } from "../util/permissionBadge.js";
import { HiddenTextWarning, VisibleText } from "../util/VisibleText.js";
import { AskUserQuestionForm } from "./AskUserQuestionForm.js";
import { PlanReview } from "./PlanReview.js";

export function useAnswer(tabId: string, requestId: string): [boolean, (answer: PermissionAnswer) => void] {
  const [busy, setBusy] = useState(false);
  const answer = (value: PermissionAnswer): void => {
    setBusy(true);
    void api()
      .answerPermission(tabId, requestId, value)
      .then((r) => {
        report("Answer permission", r);
        if (!r.ok) setBusy(false);
      });
  };
  return [busy, answer];
}

export function PermissionPrompt({ tabId, request }: { tabId: string; request: PendingPermission }) {
  if (request.toolName === "AskUserQuestion") return <AskUserQuestionForm tabId={tabId} request={request} />;
  if (request.toolName === "ExitPlanMode") return <PlanReview tabId={tabId} request={request} />;
  return <ToolPermission tabId={tabId} request={request} />;
}

function ToolPermission({ tabId, request }: { tabId: string; request: PendingPermission }) {
  const [busy, answer] = useAnswer(tabId, request.requestId);
  const [message, setMessage] = useState("");
  // The whole path, not the card's shortened one: this is what the person approves.
  const summary = toolSummary(request.toolName, request.input, { fullPaths: true });
  const rules = request.allowRules ?? [];
  return (
    <section className="perm" aria-label="Permission request" data-request-id={request.requestId}>
      <div className="perm-title">
        <span className="perm-dot" aria-hidden="true">●</span> Waiting: <b><VisibleText text={request.toolName} /></b>{" "}
        {summary !== "" ? <code className="perm-subject" aria-label="Requested action"><VisibleText text={summary} /></code> : null}
      </div>
      <HiddenTextWarning texts={[request.toolName, request.description ?? "", ...stringsIn(request.input)]} />
      {request.description !== undefined && request.description !== summary ? <div className="dim"><VisibleText text={request.description} /></div> : null}
      <div className="perm-actions">
        <button disabled={busy} className="primary" title="Allow this call once" onClick={() => answer({ behavior: "allow", updatedInput: request.input })}>
          Allow once
        </button>
        {request.requiresUserInteraction === true ? (
          // The CLI asks the person each time for these; a session rule would answer for them.
          <span className="dim">Needs your answer each time</span>
        ) : (
          <>
            <button disabled={busy} onClick={() => answer({ behavior: "allow", updatedInput: request.input, scope: "session" })}>
              Allow for this session
            </button>
            {rules.length > 0 ? (
              <span className="perm-always">
                <button disabled={busy} onClick={() => answer({ behavior: "allow", updatedInput: request.input, scope: "project" })}>
                  Always allow in this project
                </button>
                <code className="perm-rule" aria-label="Rule it will add" title="Kept in Baton's rules; delete it in the Rules view">
                  <VisibleText text={rules.join(", ")} />
                </code>
              </span>
            ) : null}
          </>
        )}
        <input
          aria-label="Deny message"
          placeholder="Reason (optional)"
          value={message}
          onChange={(e) => setMessage(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter") answer({ behavior: "deny", message: message || "Denied by the user" });
            e.stopPropagation();
          }}
        />
        <button disabled={busy} className="danger" onClick={() => answer({ behavior: "deny", message: message || "Denied by the user" })}>
          Deny
        </button>
      </div>
    </section>
  );
}

/** Every string in a tool input (bounded: inputs come from the model). */
function stringsIn(value: Json | undefined, depth = 0, out: string[] = []): string[] {
  if (typeof value === "string") out.push(value);
  else if (value !== null && typeof value === "object" && depth < 8 && out.length < 1000) {
    for (const v of Array.isArray(value) ? value : Object.values(value)) stringsIn(v, depth + 1, out);
  }
  return out;
}

export function PermissionBadge({ state }: { state: PermissionState }) {
  const text = permissionBadgeText(state);
  const [open, setOpen] = useState(false);
  if (text.byPolicy) {
    // What decided reads at a glance; what the model was told, on hover or a click.
    return (
      <span className="perm-badge-wrap">
        <button type="button" className={`perm-badge policy ${state.state}`} title={state.message ?? ""} aria-expanded={open} onClick={() => setOpen(!open)}>
          <VisibleText text={text.label} />
        </button>
        {open && state.message !== undefined ? <span className="perm-badge-message" aria-label="Policy message"><VisibleText text={state.message} /></span> : null}
      </span>
    );
  }
  return (
    <span className={`perm-badge ${state.state}`} title={state.message ?? state.decidedBy ?? ""}>
      <VisibleText text={text.label} />
      {state.state === "denied" && state.message !== undefined ? <>: <VisibleText text={state.message} /></> : ""}
    </span>
  );
}
