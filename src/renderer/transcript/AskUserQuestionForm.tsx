// AskUserQuestion: the model's questions with their options (single or multi select) and a free
// "Other" answer. Answers go back as `updatedInput.answers`, keyed by question text; multi-select
// answers are comma-joined ("S, L"), the shape the CLI reads.
import { useState } from "react";
import type { PendingPermission } from "../../shared/api.js";
import type { JsonObject } from "../../shared/protocol/messages.js";
import { field } from "../util/format.js";
import { HiddenTextWarning, VisibleText } from "../util/VisibleText.js";
import { useAnswer } from "./PermissionPrompt.js";

interface Question {
  readonly question: string;
  readonly header: string;
  readonly multiSelect: boolean;
  readonly options: readonly { readonly label: string; readonly description: string }[];
}

export function questionsOf(input: JsonObject): Question[] {
  const list = Array.isArray(input["questions"]) ? input["questions"] : [];
  return list.map((q) => {
    const obj = (q ?? {}) as JsonObject;
    const options = Array.isArray(obj["options"]) ? obj["options"] : [];
    return {
      question: field(obj, "question"),
      header: field(obj, "header"),
      multiSelect: obj["multiSelect"] === true,
      options: options.map((o) => ({ label: field(o as JsonObject, "label"), description: field(o as JsonObject, "description") })),
    };
  });
}

const Other = "__other__";

export function AskUserQuestionForm({ tabId, request }: { tabId: string; request: PendingPermission }) {
  const questions = questionsOf(request.input);
  const [busy, answer] = useAnswer(tabId, request.requestId);
  const [chosen, setChosen] = useState<Record<string, string[]>>({});
  const [other, setOther] = useState<Record<string, string>>({});

  const toggle = (q: Question, label: string): void => {
    setChosen((c) => {
      const now = c[q.question] ?? [];
      if (!q.multiSelect) return { ...c, [q.question]: [label] };
      return { ...c, [q.question]: now.includes(label) ? now.filter((x) => x !== label) : [...now, label] };
    });
  };
  const answers: Record<string, string> = {};
  for (const q of questions) {
    const picks = (chosen[q.question] ?? []).map((l) => (l === Other ? (other[q.question] ?? "").trim() : l)).filter((x) => x !== "");
    if (picks.length > 0) answers[q.question] = picks.join(", ");
  }
  const complete = questions.every((q) => answers[q.question] !== undefined);

  return (
    <section className="perm question" aria-label="Permission request" data-request-id={request.requestId}>
      <div className="perm-title">
        <span className="perm-dot" aria-hidden="true">●</span> Claude asks
      </div>
      <HiddenTextWarning texts={questions.flatMap((q) => [q.question, q.header, ...q.options.flatMap((o) => [o.label, o.description])])} />
      {questions.map((q) => (
        <fieldset key={q.question} className="q">
          <legend>
            {q.header !== "" ? <span className="chip"><VisibleText text={q.header} /></span> : null} <VisibleText text={q.question} />
          </legend>
          {[...q.options, { label: Other, description: "" }].map((o) => (
            <label key={o.label} className="opt">
              <input
                type={q.multiSelect ? "checkbox" : "radio"}
                name={`${request.requestId}:${q.question}`}
                checked={(chosen[q.question] ?? []).includes(o.label)}
                onChange={() => toggle(q, o.label)}
              />
              {o.label === Other ? (
                <input
                  aria-label={`Other answer to ${q.question}`}
                  placeholder="Other…"
                  value={other[q.question] ?? ""}
                  onFocus={() => !(chosen[q.question] ?? []).includes(Other) && toggle(q, Other)}
                  onChange={(e) => setOther((x) => ({ ...x, [q.question]: e.target.value }))}
                />
              ) : (
                <span>
                  <VisibleText text={o.label} /> {o.description !== "" ? <span className="dim">— <VisibleText text={o.description} /></span> : null}
                </span>
              )}
            </label>
          ))}
        </fieldset>
      ))}
      <div className="perm-actions">
        <button className="primary" disabled={busy || !complete} onClick={() => answer({ behavior: "allow", answers })}>
          Submit answers
        </button>
        <button disabled={busy} onClick={() => answer({ behavior: "deny", message: "The user declined to answer." })}>
          Decline
        </button>
      </div>
    </section>
  );
}
