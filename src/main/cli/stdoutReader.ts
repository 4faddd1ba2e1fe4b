// stdout chunks → lines (lineFramer) → typed messages (parseLine). A line that cannot be framed or
// parsed becomes a problem report and the stream goes on.

import type { ProtocolProblemEvent } from "../../shared/events.js";
import type { ProtocolMessage } from "../../shared/protocol/messages.js";
import { parseLine } from "../../shared/protocol/parseMessage.js";
import { createLineFramer } from "./lineFramer.js";

export interface StdoutReaderOptions {
  readonly maxLineBytes?: number;
  onMessage(message: ProtocolMessage, lineNumber: number): void;
  /** `text` is the line when it was framed but could not be parsed. */
  onProblem(problem: ProtocolProblemEvent, text?: string): void;
  /** Every framed line, before parsing (recordings). */
  onLine?(text: string, lineNumber: number): void;
}

export interface StdoutReader {
  push(chunk: Buffer): void;
  end(): void;
}

export function createStdoutReader(options: StdoutReaderOptions): StdoutReader {
  const framer = createLineFramer({
    ...(options.maxLineBytes !== undefined ? { maxLineBytes: options.maxLineBytes } : {}),
    unterminatedLine: "emit",
    onLine(text, lineNumber) {
      options.onLine?.(text, lineNumber);
      const parsed = parseLine(text, lineNumber);
      if (parsed.ok) options.onMessage(parsed.message, lineNumber);
      else {
        const { problem } = parsed;
        options.onProblem({ kind: "protocol_problem", lineNumber, reason: problem.reason, excerpt: problem.excerpt }, text);
      }
    },
    onProblem(problem) {
      options.onProblem({
        kind: "protocol_problem",
        lineNumber: problem.lineNumber,
        reason: problem.reason,
        excerpt: problem.excerpt,
      });
    },
  });
  let ended = false;
  return {
    push(chunk) {
      if (!ended) framer.push(chunk);
    },
    end() {
      if (ended) return;
      ended = true;
      framer.end();
    },
  };
}
