// The person's answer to an open question or plan of a subagent (issue 24), drawn like Baton's
// other decisions (AskUserQuestion, ExitPlanMode): a question gets an answer box; a plan is shown
// as markdown, can be edited, and is approved, approved with the edits, or rejected with feedback.
// The first answer wins: when the conductor (or Baton) settled it first, the call fails with
// "conflict" and the message is shown in place until the settled state arrives.
import { useState } from "react";
import type { Result } from "../../shared/api.js";
import type { Escalation, EscalationReply } from "../../shared/escalation.js";
import { api, report } from "../apiClient.js";
import { Markdown } from "../markdown/Markdown.js";
import { HiddenTextWarning, VisibleText } from "../util/VisibleText.js";
import { isEdited, planOf } from "./escalationText.js";

type Note = (message: string | undefined) => void;

/**
 * What the form does after the main side answered: a success or a conflict means the escalation is
 * settled (the form stays disabled until the settled state arrives); a conflict's message says who
 * answered first. Any other failure is shown and the person may try again.
 */
export function afterReply(result: Result<void>): { readonly settled: boolean; readonly note?: string } {
  if (result.ok) return { settled: true };
  if (result.error.code === "conflict") return { settled: true, note: result.error.message };
  return { settled: false, note: `Not sent: ${result.error.message}` };
}

/** Sends one reply; `busy` stays set after a success (the settled state comes with the next delta) and after a conflict. */
function useReply(tabId: string, escalationId: string, onNote: Note): [boolean, (reply: EscalationReply) => void] {
  const [busy, setBusy] = useState(false);
  const send = (reply: EscalationReply): void => {
    setBusy(true);
    onNote(undefined);
    void api()
      .answerEscalation(tabId, escalationId, reply)
      .then(
        (r) => {
          const after = afterReply(r);
          if (!r.ok && !after.settled) report("Answer subagent", r);
          onNote(after.note);
          if (!after.settled) setBusy(false);
        },
        (error: unknown) => {
          onNote(`The answer was not sent: ${String(error)}`);
          setBusy(false);
        },
      );
  };
  return [busy, send];
}

export function QuestionForm({ tabId, escalation, onNote }: { tabId: string; escalation: Escalation; onNote: Note }) {
  const [busy, send] = useReply(tabId, escalation.id, onNote);
  const [text, setText] = useState("");
  const question = escalation.question ?? "";
  const ready = text.trim() !== "" && !busy;
  return (
    <>
      <HiddenTextWarning texts={[question]} />
      <div className="escalation-question" aria-label="Question">
        <VisibleText text={question} />
      </div>
      <div className="perm-actions">
        <textarea
          aria-label="Answer"
          className="escalation-answer"
          placeholder="Your answer…"
          rows={2}
          value={text}
          disabled={busy}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            e.stopPropagation();
            if (e.key === "Enter" && (e.ctrlKey || e.metaKey) && ready) send({ kind: "answer", text: text.trim() });
          }}
        />
        <button className="primary" disabled={!ready} onClick={() => send({ kind: "answer", text: text.trim() })}>
          Send answer
        </button>
      </div>
    </>
  );
}

export function PlanForm({ tabId, escalation, onNote }: { tabId: string; escalation: Escalation; onNote: Note }) {
  const original = planOf(escalation);
  const [busy, send] = useReply(tabId, escalation.id, onNote);
  const [plan, setPlan] = useState(original);
  const [editing, setEditing] = useState(false);
  const [feedback, setFeedback] = useState("");
  const edited = isEdited(original, plan);
  return (
    <>
      <div className="escalation-tools">
        <button className="link" aria-pressed={editing} onClick={() => setEditing((x) => !x)}>
          {editing ? "Preview" : "Edit"}
        </button>
        {edited ? <span className="chip warning">edited</span> : null}
      </div>
      <HiddenTextWarning texts={[original, plan]} />
      {editing ? (
        <textarea aria-label="Plan" className="plan-edit" value={plan} rows={12} onChange={(e) => setPlan(e.target.value)} onKeyDown={(e) => e.stopPropagation()} />
      ) : (
        <Markdown className="plan-md" text={plan} />
      )}
      <div className="perm-actions">
        <button className="primary" disabled={busy} title="Approve the plan as submitted" onClick={() => send({ kind: "approve" })}>
          Approve
        </button>
        <button
          disabled={busy || !edited}
          title={edited ? "Approve; the agent gets your edited plan" : "Edit the plan first"}
          onClick={() => send({ kind: "approve", editedPlan: plan })}
        >
          Approve with edits
        </button>
        <input
          aria-label="Feedback"
          placeholder="What should change? (needed to reject)"
          value={feedback}
          disabled={busy}
          onChange={(e) => setFeedback(e.target.value)}
          onKeyDown={(e) => e.stopPropagation()}
        />
        <button className="danger" disabled={busy || feedback.trim() === ""} title="The agent revises its plan with your feedback" onClick={() => send({ kind: "reject", feedback: feedback.trim() })}>
          Reject
        </button>
      </div>
    </>
  );
}
