// The body of a tool card, by tool. Tool output is always rendered as text, never as HTML, with
// hidden direction and zero-width characters shown as markers (VisibleText).
import { changeDiff } from "../../shared/diff/changeDiff.js";
import { isAllowedExternalUrl } from "../../shared/linkPolicy.js";
import type { Json, JsonObject } from "../../shared/protocol/messages.js";
import { toolResultText } from "../../shared/toolErrorText.js";
import type { ToolCallRecord } from "../../shared/transcript.js";
import { Markdown, openExternal } from "../markdown/Markdown.js";
import { field, mcpName } from "../util/format.js";
import { VisibleText } from "../util/VisibleText.js";
import { BatonToolBody, isBatonTool } from "./batonToolBodies.js";
import { DiffView } from "./diff/DiffView.js";
import { useCallChange } from "./diff/tabChanges.js";

function Output({ call }: { call: ToolCallRecord }) {
  const result = call.result;
  if (result === undefined) return null;
  return <pre className={`out ${result.isError ? "error" : ""}`} aria-label="Output"><VisibleText text={toolResultText(result.text, result.isError) || "(no output)"} /></pre>;
}

function Json_({ value, label }: { value: Json | undefined; label: string }) {
  return <pre className="json" aria-label={label}><VisibleText text={JSON.stringify(value, null, 2) ?? ""} /></pre>;
}

/**
 * An Edit, MultiEdit or Write: the file and its diff (shared/diff/changeDiff.ts: the
 * CLI's patch, else computed against what the tab's transcript last showed of the file), then the
 * error when the call failed. Without a tab (a detached view) the diff comes from the call alone.
 */
function ChangeBody({ call, tabId }: { call: ToolCallRecord; tabId: string | undefined }) {
  const change = useCallChange(tabId, call);
  return (
    <>
      <div className="path"><VisibleText text={change.path} /></div>
      <DiffView view={changeDiff(change)} />
      {call.result?.isError === true ? <Output call={call} /> : null}
    </>
  );
}

function TodoBody({ call }: { call: ToolCallRecord }) {
  const todos = Array.isArray(call.input["todos"]) ? call.input["todos"] : [];
  return (
    <ul className="todos" aria-label="Todo list">
      {todos.map((t, i) => {
        const item = (t ?? {}) as JsonObject;
        const status = field(item, "status");
        const mark = status === "completed" ? "☑" : status === "in_progress" ? "◐" : "☐";
        return (
          <li key={i} className={`todo ${status}`}>
            <span aria-hidden="true">{mark}</span> <VisibleText text={field(item, "content")} />
          </li>
        );
      })}
    </ul>
  );
}

function Collapsible({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <details className="more">
      <summary>{label}</summary>
      {children}
    </details>
  );
}

/** `tabId`: the tab the call is in, for what its transcript showed of a file an edit changes. */
export function ToolBody({ call, tabId }: { call: ToolCallRecord; tabId?: string }) {
  const input = call.input;
  if (isBatonTool(call.name)) return <BatonToolBody call={call} />;
  switch (call.name) {
    case "Bash":
      return (
        <>
          <pre className="cmd" aria-label="Command">$ <VisibleText text={field(input, "command")} /></pre>
          <Output call={call} />
        </>
      );
    case "Read":
      return (
        <>
          <div className="path"><VisibleText text={field(input, "file_path")} /></div>
          {call.result !== undefined ? (
            <Collapsible label={`${call.result.text.split("\n").length} lines`}>
              <Output call={call} />
            </Collapsible>
          ) : null}
        </>
      );
    case "Write":
    case "Edit":
    case "MultiEdit":
      return <ChangeBody call={call} tabId={tabId} />;
    case "Grep":
    case "Glob":
      return (
        <>
          <div className="args">
            <code><VisibleText text={field(input, "pattern")} /></code>
            {field(input, "path") !== "" ? <span> in <VisibleText text={field(input, "path")} /></span> : null}
            {field(input, "glob") !== "" ? <span> (<VisibleText text={field(input, "glob")} />)</span> : null}
          </div>
          <Output call={call} />
        </>
      );
    case "WebFetch":
      return (
        <>
          <div className="args">
            <FetchedUrl url={field(input, "url")} />
            <div className="dim"><VisibleText text={field(input, "prompt")} /></div>
          </div>
          <Output call={call} />
        </>
      );
    case "TodoWrite":
      return <TodoBody call={call} />;
    case "ExitPlanMode":
      return (
        <Collapsible label="Plan">
          <Markdown text={field(input, "plan")} />
        </Collapsible>
      );
    case "AskUserQuestion":
      return <AnswersBody call={call} />;
    default:
      return <GenericBody call={call} />;
  }
}

/** The WebFetch URL: a link only when the shared link policy would open it, else plain text. */
function FetchedUrl({ url }: { url: string }) {
  if (!isAllowedExternalUrl(url)) {
    return (
      <span className="url refused" title="Not a link: Baton opens only https: and mailto: links">
        <VisibleText text={url} />
      </span>
    );
  }
  return (
    <a href={url} target="_blank" rel="noopener noreferrer" onClick={(e) => { e.preventDefault(); openExternal(url); }}>
      <VisibleText text={url} />
    </a>
  );
}

function GenericBody({ call }: { call: ToolCallRecord }) {
  const mcp = mcpName(call.name);
  return (
    <>
      {mcp !== undefined ? <div className="dim">MCP server <VisibleText text={mcp.server} /></div> : null}
      <Json_ value={call.input} label="Input" />
      {call.result !== undefined ? (
        call.result.structured !== undefined ? <Json_ value={call.result.structured} label="Result" /> : <Output call={call} />
      ) : null}
    </>
  );
}

function AnswersBody({ call }: { call: ToolCallRecord }) {
  const questions = Array.isArray(call.input["questions"]) ? call.input["questions"] : [];
  const structured = call.result?.structured;
  const answers = isObject(structured) && isObject(structured["answers"]) ? structured["answers"] : undefined;
  return (
    <dl className="answers">
      {questions.map((q, i) => {
        const question = field((q ?? {}) as JsonObject, "question");
        return (
          <div key={i}>
            <dt><VisibleText text={question} /></dt>
            <dd><VisibleText text={answers !== undefined ? field(answers, question) || "–" : "…"} /></dd>
          </div>
        );
      })}
      {call.result?.isError === true ? <Output call={call} /> : null}
    </dl>
  );
}

function isObject(value: Json | undefined): value is JsonObject {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
