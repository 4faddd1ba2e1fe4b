// A subagent's questions (ask_conductor) and plans (submit_plan) on its card (issue 24). An open
// one is drawn at once and in full, with the form that answers it, whoever it waits on: the
// person may answer before the conductor does. A settled one is one compact line (and the plan the
// agent went on with). Each is a region named "Question from <type>" / "Plan from <type>".
import { memo, useState } from "react";
import type { Escalation } from "../../shared/escalation.js";
import type { SubagentRecord } from "../../shared/transcript.js";
import { Markdown } from "../markdown/Markdown.js";
import { VisibleText } from "../util/VisibleText.js";
import { PlanForm, QuestionForm } from "./EscalationForms.js";
import { approvedPlanOf, clockTime, escalationLabel, outcomeText, planOf, waitingText } from "./escalationText.js";

/**
 * The card's escalations, oldest first: settled ones compact, open ones (the newest, as an agent
 * waits on each) in full. One list keyed by id, so an item keeps its state when it is settled.
 */
export function Escalations({ tabId, record }: { tabId: string; record: SubagentRecord }) {
  const list = record.escalations ?? [];
  if (list.length === 0) return null;
  return (
    <ol className="escalations" aria-label="Questions and plans">
      {list.map((e) => (
        <li key={e.id}>
          <EscalationItem tabId={tabId} record={record} escalation={e} />
        </li>
      ))}
    </ol>
  );
}

/**
 * One escalation, open or settled. It holds what the person was told when their answer lost (the
 * first answer wins), so the note stays when the settled state arrives with the next delta.
 */
const EscalationItem = memo(function EscalationItem({ tabId, record, escalation: e }: { tabId: string; record: SubagentRecord; escalation: Escalation }) {
  const [note, setNote] = useState<string | undefined>(undefined);
  const label = escalationLabel(e, record.subagentType);
  const open = e.state === "open";
  return (
    <section
      className={`escalation ${e.kind} ${open ? `open to-${e.routedTo}` : `settled ${e.state}`}`}
      aria-label={label}
      data-escalation-id={e.id}
      data-state={e.state}
      data-routed-to={e.routedTo}
      tabIndex={-1}
    >
      {open ? <OpenHead e={e} record={record} /> : <SettledHead e={e} />}
      {note !== undefined ? (
        <div className="note error escalation-note" role="alert">
          <VisibleText text={note} />
        </div>
      ) : null}
      {open ? (
        e.kind === "plan" ? (
          <PlanForm tabId={tabId} escalation={e} onNote={setNote} />
        ) : (
          <QuestionForm tabId={tabId} escalation={e} onNote={setNote} />
        )
      ) : (
        <SettledBody e={e} />
      )}
    </section>
  );
});

function OpenHead({ e, record }: { e: Escalation; record: SubagentRecord }) {
  return (
    <div className="perm-title escalation-head">
      <span className="perm-dot" aria-hidden="true">●</span>
      <b>{e.kind === "plan" ? `Plan v${e.plan?.version ?? 1}` : "Question"}</b> from
      <span className="agent-type"><VisibleText text={record.subagentType} /></span>
      <span className="escalation-agent"><VisibleText text={record.description} /></span>
      <span className={`chip waiting-on to-${e.routedTo}`} aria-label="Waiting on">{waitingText(e.routedTo)}</span>
      {e.routeReason !== "" ? <span className="dim route-reason">(<VisibleText text={e.routeReason} />)</span> : null}
    </div>
  );
}

function SettledHead({ e }: { e: Escalation }) {
  const time = clockTime(e.settledAt);
  return (
    <div className="escalation-head settled-head">
      <span className={`escalation-mark ${e.state}`} aria-hidden="true">{Marks[e.state]}</span>
      <b>{e.kind === "plan" ? `Plan v${e.plan?.version ?? 1}` : "Question"}</b>
      <span className="escalation-outcome" aria-label="Outcome">{outcomeText(e)}</span>
      {time !== "" ? <time className="dim" dateTime={e.settledAt}>{time}</time> : null}
    </div>
  );
}

const Marks: Record<Escalation["state"], string> = { open: "●", answered: "✓", approved: "✓", rejected: "↺", failed: "✗" };

function SettledBody({ e }: { e: Escalation }) {
  if (e.kind === "question") {
    return (
      <div className="qa">
        <span className="qa-q"><VisibleText text={e.question ?? ""} /></span>
        <span className="qa-arrow" aria-hidden="true"> → </span>
        {e.state === "failed" ? (
          <span className="qa-a error" aria-label="Why it was not answered"><VisibleText text={e.reply ?? "no answer"} /></span>
        ) : (
          <span className="qa-a" aria-label="Answer"><VisibleText text={e.reply ?? ""} /></span>
        )}
      </div>
    );
  }
  if (e.state === "approved") {
    return (
      <>
        <Markdown className="plan-md approved-plan" text={approvedPlanOf(e)} />
        {e.approvedPlan !== undefined ? (
          <details className="more">
            <summary>Plan as submitted</summary>
            <Markdown className="plan-md" text={planOf(e)} />
          </details>
        ) : null}
        {e.reply !== undefined && e.reply !== "" ? (
          <div className="dim" aria-label="Notes">
            Notes: <VisibleText text={e.reply} />
          </div>
        ) : null}
      </>
    );
  }
  return (
    <>
      {e.state === "failed" ? (
        <div className="note error" aria-label="Why it was not answered"><VisibleText text={e.reply ?? "no answer"} /></div>
      ) : (
        <div className="feedback" aria-label="Feedback">
          Feedback: <VisibleText text={e.reply ?? ""} />
        </div>
      )}
      <details className="more">
        <summary>Plan v{e.plan?.version ?? 1}: <VisibleText text={e.plan?.goal ?? ""} /></summary>
        <Markdown className="plan-md" text={planOf(e)} />
      </details>
    </>
  );
}
