// Hand-written transcripts for the session list's tests: turns of a prompt and an answer, about
// 700 bytes each, a second apart, as the CLI writes them.

/** The time of the `n`th line. */
export const at = (n: number): string => new Date(Date.UTC(2026, 10, 30, 2, 0, 0) + n * 1000).toISOString();

/** Lines as a JSONL file's text. */
export const jsonl = (lines: readonly object[]): string => lines.map((l) => `${JSON.stringify(l)}\n`).join("");

/** `count` turns in `cwd`, the first prompt "turn <from>". */
export function turns(sessionId: string, cwd: string, from: number, count: number): object[] {
  const envelope = { sessionId, cwd, version: "2.1.197", gitBranch: "main" };
  return Array.from({ length: count }, (_, i) => [
    { ...envelope, type: "user", uuid: `u${from + i}`, timestamp: at(2 * (from + i)), message: { role: "user", content: `turn ${from + i}: ${"words ".repeat(50)}` } },
    { ...envelope, type: "assistant", uuid: `a${from + i}`, timestamp: at(2 * (from + i) + 1), message: { id: `m${from + i}`, role: "assistant", model: "m", content: [{ type: "text", text: "ok ".repeat(50) }] } },
  ]).flat();
}
