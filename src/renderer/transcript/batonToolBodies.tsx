// The tool cards of Baton's own agent tools (issue 24, the "baton" MCP server): what was asked,
// planned, answered or decided, as text. The person answers an open question or plan on the
// asking agent's card (EscalationView.tsx), not here: an open call only points there.
import { toolResultText } from "../../shared/toolErrorText.js";
import type { ToolCallRecord } from "../../shared/transcript.js";
import { field } from "../util/format.js";
import { VisibleText } from "../util/VisibleText.js";

export const BatonTools = {
  ask: "mcp__baton__ask_conductor",
  plan: "mcp__baton__submit_plan",
  answer: "mcp__baton__answer_subagent",
  review: "mcp__baton__review_subagent_plan",
} as const;

const Names = new Set<string>(Object.values(BatonTools));

export function isBatonTool(name: string): boolean {
  return Names.has(name);
}

export function BatonToolBody({ call }: { call: ToolCallRecord }) {
  switch (call.name) {
    case BatonTools.ask:
      return <AskBody call={call} />;
    case BatonTools.plan:
      return <PlanBody call={call} />;
    case BatonTools.answer:
      return <AnswerBody call={call} />;
    default:
      return <ReviewBody call={call} />;
  }
}

function AskBody({ call }: { call: ToolCallRecord }) {
  return (
    <div className="baton-tool">
      <div className="bt-text" aria-label="Question"><VisibleText text={field(call.input, "question")} /></div>
      {call.result === undefined ? (
        <OnTheCard id={call.toolUseId} what="question" />
      ) : (
        <Reply call={call} label="Answer" />
      )}
    </div>
  );
}

function PlanBody({ call }: { call: ToolCallRecord }) {
  const steps = Array.isArray(call.input["steps"]) ? call.input["steps"] : [];
  return (
    <div className="baton-tool">
      <div className="bt-text" aria-label="Goal"><b>Goal:</b> <VisibleText text={field(call.input, "goal")} /></div>
      <ol className="bt-steps" aria-label="Steps">
        {steps.map((step, i) => (
          <li key={i}><VisibleText text={typeof step === "string" ? step : JSON.stringify(step)} /></li>
        ))}
      </ol>
      {call.result === undefined ? <OnTheCard id={call.toolUseId} what="plan" /> : <Reply call={call} label="Review" />}
    </div>
  );
}

function AnswerBody({ call }: { call: ToolCallRecord }) {
  return (
    <div className="baton-tool">
      <div className="dim">to <code aria-label="Agent"><VisibleText text={field(call.input, "agent")} /></code></div>
      <div className="bt-text" aria-label="Answer"><VisibleText text={field(call.input, "answer")} /></div>
      {call.result !== undefined ? <Reply call={call} label="Result" /> : null}
    </div>
  );
}

function ReviewBody({ call }: { call: ToolCallRecord }) {
  const decision = field(call.input, "decision");
  const feedback = field(call.input, "feedback");
  return (
    <div className="baton-tool">
      <div>
        <span className={`chip decision ${decision === "approved" ? "ok" : "rejected"}`} aria-label="Decision"><VisibleText text={decision || "?"} /></span>{" "}
        <span className="dim">plan of</span> <code aria-label="Agent"><VisibleText text={field(call.input, "agent")} /></code>
      </div>
      {feedback !== "" ? <div className="bt-text" aria-label="Feedback"><VisibleText text={feedback} /></div> : null}
      {call.result !== undefined ? <Reply call={call} label="Result" /> : null}
    </div>
  );
}

/** The call's result: the answer or verdict the agent read, or why there was none. */
function Reply({ call, label }: { call: ToolCallRecord; label: string }) {
  const result = call.result!;
  return (
    <div className={`bt-reply ${result.isError ? "error" : ""}`} aria-label={result.isError ? "Not answered" : label}>
      <b>{result.isError ? "Not answered:" : `${label}:`}</b> <VisibleText text={toolResultText(result.text, result.isError) || "(empty)"} />
    </div>
  );
}

/** An open call: where to answer it. */
function OnTheCard({ id, what }: { id: string; what: "question" | "plan" }) {
  return (
    <div className="note">
      Waiting for {what === "plan" ? "a review" : "an answer"}: {what === "plan" ? "review it" : "answer it"} on the agent's card above.{" "}
      <button className="link-btn" onClick={() => focusEscalation(id)}>
        Go to the {what}
      </button>
    </div>
  );
}

function focusEscalation(id: string): void {
  const el = document.querySelector<HTMLElement>(`[data-escalation-id="${CSS.escape(id)}"]`);
  if (el === null) return;
  el.scrollIntoView({ block: "nearest" });
  el.focus();
}
