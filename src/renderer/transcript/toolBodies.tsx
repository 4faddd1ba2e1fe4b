// The body of a tool card, by tool. Tool output is always rendered as text, never as HTML, with
// hidden direction and zero-width characters shown as markers (VisibleText).
import { isAllowedExternalUrl } from "../../shared/linkPolicy.js";
import type { Json, JsonObject } from "../../shared/protocol/messages.js";
import type { ToolCallRecord } from "../../shared/transcript.js";
import type { DiffHunk as Hunk } from "../../shared/unifiedDiff.js";
import { Markdown, openExternal } from "../markdown/Markdown.js";
import { field, mcpName, str } from "../util/format.js";
import { VisibleText } from "../util/VisibleText.js";
import { BatonToolBody, isBatonTool } from "./batonToolBodies.js";

function Output({ call }: { call: ToolCallRecord }) {
  const result = call.result;
  if (result === undefined) return null;
  return <pre className={`out ${result.isError ? "error" : ""}`} aria-label="Output"><VisibleText text={result.text || "(no output)"} /></pre>;
}

function Json_({ value, label }: { value: Json | undefined; label: string }) {
  return <pre className="json" aria-label={label}><VisibleText text={JSON.stringify(value, null, 2) ?? ""} /></pre>;
}

function hunksOf(structured: Json | undefined): Hunk[] | undefined {
  if (structured === null || typeof structured !== "object" || Array.isArray(structured)) return undefined;
  const patch = (structured as JsonObject)["structuredPatch"];
  if (!Array.isArray(patch)) return undefined;
  const hunks: Hunk[] = [];
  for (const h of patch) {
    if (h === null || typeof h !== "object" || Array.isArray(h)) continue;
    const lines = Array.isArray(h["lines"]) ? h["lines"].map((l) => str(l)) : [];
    hunks.push({ oldStart: Number(h["oldStart"] ?? 0), newStart: Number(h["newStart"] ?? 0), lines });
  }
  return hunks;
}

function lineClass(line: string): string {
  return line.startsWith("+") ? "add" : line.startsWith("-") ? "del" : "ctx";
}

export function Diff({ hunks }: { hunks: readonly Hunk[] }) {
  return (
    <div className="diff" aria-label="Diff">
      {hunks.map((h, i) => (
        <div key={i} className="hunk">
          <div className="hunk-head">@@ -{h.oldStart} +{h.newStart} @@</div>
          {h.lines.map((line, j) => (
            <div key={j} className={`dl ${lineClass(line)}`}><VisibleText text={line} /></div>
          ))}
        </div>
      ))}
    </div>
  );
}

function EditBody({ call }: { call: ToolCallRecord }) {
  const hunks = hunksOf(call.result?.structured);
  const fallback: Hunk[] = [
    {
      oldStart: 0,
      newStart: 0,
      lines: [
        ...field(call.input, "old_string").split("\n").map((l) => `-${l}`),
        ...field(call.input, "new_string").split("\n").map((l) => `+${l}`),
      ],
    },
  ];
  return (
    <>
      <div className="path"><VisibleText text={field(call.input, "file_path")} /></div>
      <Diff hunks={hunks !== undefined && hunks.length > 0 ? hunks : fallback} />
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

export function ToolBody({ call }: { call: ToolCallRecord }) {
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
      return (
        <>
          <div className="path"><VisibleText text={field(input, "file_path")} /></div>
          <Collapsible label={`${field(input, "content").split("\n").length} lines written`}>
            <pre className="out"><VisibleText text={field(input, "content")} /></pre>
          </Collapsible>
          {call.result?.isError === true ? <Output call={call} /> : null}
        </>
      );
    case "Edit":
    case "MultiEdit":
      return <EditBody call={call} />;
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
