// ExitPlanMode: the plan as markdown, editable, with Approve, Approve and clear context (the app
// starts a fresh session from the plan, in a new tab), and Reject with feedback.
import { useState } from "react";
import type { PendingPermission } from "../../shared/api.js";
import { Markdown } from "../markdown/Markdown.js";
import { field } from "../util/format.js";
import { HiddenTextWarning, VisibleText } from "../util/VisibleText.js";
import { useAnswer } from "./PermissionPrompt.js";

export function PlanReview({ tabId, request }: { tabId: string; request: PendingPermission }) {
  // CLI 2.1.332 may send only the plan file's path: the main side read the plan from it.
  const original = field(request.input, "plan") || (request.planFromFile ?? "");
  const [plan, setPlan] = useState(original);
  const [editing, setEditing] = useState(false);
  const [feedback, setFeedback] = useState("");
  const [busy, answer] = useAnswer(tabId, request.requestId);

  return (
    <section className="perm plan" aria-label="Permission request" data-request-id={request.requestId}>
      <div className="perm-title">
        <span className="perm-dot" aria-hidden="true">●</span> Plan ready for review
        <button className="link" onClick={() => setEditing((e) => !e)}>{editing ? "Preview" : "Edit"}</button>
      </div>
      {request.planFileProblem !== undefined && original === "" ? (
        <div className="note error" role="alert">
          <VisibleText text={request.planFileProblem} />
        </div>
      ) : original === "" ? (
        // 2.1.332 drops `input.plan` and names no file when the model wrote no plan file: say so, not a blank review.
        <div className="note error" role="alert">
          Claude Code sent no plan: the model has not written one yet.
        </div>
      ) : null}
      <HiddenTextWarning texts={[plan]} />
      {editing ? (
        <textarea aria-label="Plan" className="plan-edit" value={plan} onChange={(e) => setPlan(e.target.value)} rows={12} />
      ) : (
        <Markdown className="plan-md" text={plan} />
      )}
      <div className="perm-actions">
        <button className="primary" disabled={busy} onClick={() => answer({ behavior: "allow", plan })}>
          Approve
        </button>
        <button disabled={busy} onClick={() => answer({ behavior: "allow", plan, clearContext: true })}>
          Approve and clear context
        </button>
        <input aria-label="Feedback" placeholder="What should change?" value={feedback} onChange={(e) => setFeedback(e.target.value)} onKeyDown={(e) => e.stopPropagation()} />
        <button className="danger" disabled={busy} onClick={() => answer({ behavior: "deny", message: feedback || "The user rejected the plan." })}>
          Reject
        </button>
      </div>
    </section>
  );
}
