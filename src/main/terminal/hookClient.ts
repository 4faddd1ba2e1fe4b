// `baton hook`'s side of the socket: one request line, one answer line, bounded in size and time.
// Every failure is "ask" (the caller never sees an exception). Imports only Node's net and the
// contract's types, so the hook starts fast.
import net from "node:net";
import { AskVerdict, isHookDecision, type HookVerdict } from "../../shared/hookVerdict.js";
import type { HookEnvelope } from "../../shared/terminalHooks.js";

const MaxAnswerBytes = 64 * 1024;

/** Sends `envelope` to the socket and resolves with Baton's verdict, or "ask" on any failure or after `waitMs`. */
export function askBaton(socket: string, envelope: HookEnvelope, waitMs: number): Promise<HookVerdict> {
  return new Promise((resolve) => {
    let settled = false;
    let received = "";
    const connection = net.createConnection(socket);
    const settle = (verdict: HookVerdict): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      connection.destroy();
      resolve(verdict);
    };
    const timer = setTimeout(() => settle(AskVerdict), waitMs);
    connection.setEncoding("utf8");
    connection.on("connect", () => connection.write(`${JSON.stringify(envelope)}\n`));
    connection.on("data", (chunk: string) => {
      received += chunk;
      const newline = received.indexOf("\n");
      if (newline !== -1) settle(parseVerdict(received.slice(0, newline)));
      else if (received.length > MaxAnswerBytes) settle(AskVerdict);
    });
    connection.on("end", () => settle(parseVerdict(received)));
    connection.on("error", () => settle(AskVerdict));
  });
}

/** Baton's answer line as a verdict; anything else is "ask". */
export function parseVerdict(line: string): HookVerdict {
  try {
    const value = JSON.parse(line) as { decision?: unknown; reason?: unknown } | null;
    const decision = value?.decision;
    if (!isHookDecision(decision)) return AskVerdict;
    return typeof value?.reason === "string" ? { decision, reason: value.reason.slice(0, 10_000) } : { decision };
  } catch {
    return AskVerdict;
  }
}
