// A local slash command or `!` shell command the CLI recorded as a user line: shown as the
// command line and its output (plain text in a monospace block), not as a prompt.
import type { EchoPart } from "../../shared/commandEcho.js";
import { VisibleText } from "../util/VisibleText.js";

export function CommandEcho({ id, parts }: { id: string; parts: readonly EchoPart[] }) {
  return (
    <div className="command-echo" role="group" aria-label="Local command" data-block-id={id}>
      {parts.map((part, i) => {
        switch (part.kind) {
          case "command":
            return (
              <div key={i} className="cmd-line" aria-label="Command line">
                <span className="cmd-sign" aria-hidden="true">❯</span>
                <code><VisibleText text={part.line} /></code>
              </div>
            );
          case "output":
            return (
              <pre key={i} className={`cmd-output ${part.stream}`} aria-label={part.stream === "stderr" ? "Command errors" : "Command output"}>
                {part.text === "" ? <span className="dim">(no output)</span> : <VisibleText text={part.text} />}
              </pre>
            );
          case "caveat":
            return (
              <div key={i} className="note cmd-caveat">
                <VisibleText text={part.text} />
              </div>
            );
        }
      })}
    </div>
  );
}
