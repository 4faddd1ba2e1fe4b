// History folders for the SQLite fault tests: sessions (optionally with subagents) of many turns,
// each turn's text made of words no other turn has, so the index grows with the history (as it
// does with real transcripts) and every part of a session can be searched for by name.
import fs from "node:fs";
import path from "node:path";

export const FaultProject = "-home-user-code-app";
const cwd = "/home/user/code/app";

export interface FaultSession {
  /** The main file's path. */
  readonly file: string;
  /** A word only the session's first turn has, one only its middle turn has, one only its last. */
  readonly first: string;
  readonly middle: string;
  readonly last: string;
  /** The same words of each subagent's file, by agent id. */
  readonly agents: ReadonlyMap<string, { readonly file: string; readonly first: string; readonly last: string }>;
}

/** A made-up word: letters only (the tokenizer splits on digits too), unique per `tag` and `n`. */
export function word(tag: string, n: number): string {
  const letters = n.toString(26).replace(/[0-9a-p]/g, (c) => String.fromCharCode(97 + parseInt(c, 26)));
  return `${tag}q${letters}`;
}

/** `turns` prompt-and-answer turns of `wordsPerTurn` unique words each, as the CLI writes them. */
function turnLines(sessionId: string, tag: string, turns: number, wordsPerTurn: number, agentId?: string): string {
  const envelope = { sessionId, cwd, version: "2.1.197", gitBranch: "main", isSidechain: agentId !== undefined, ...(agentId !== undefined ? { agentId } : {}) };
  let n = 0;
  const text = (): string => Array.from({ length: wordsPerTurn }, () => word(tag, n++)).join(" ");
  const marker = (i: number): string => (i === 0 ? `${tag}first ` : i === Math.floor(turns / 2) ? `${tag}middle ` : i === turns - 1 ? `${tag}last ` : "");
  const lines: string[] = [];
  for (let i = 0; i < turns; i++) {
    const time = new Date(Date.UTC(2026, 10, 30, 2, 0, 0) + i * 2000);
    lines.push(JSON.stringify({ ...envelope, type: "user", uuid: `${tag}u${i}`, timestamp: time.toISOString(), message: { role: "user", content: `${marker(i)}${text()}` } }));
    lines.push(
      JSON.stringify({
        ...envelope,
        type: "assistant",
        uuid: `${tag}a${i}`,
        timestamp: new Date(time.getTime() + 1000).toISOString(),
        message: { id: `${tag}m${i}`, role: "assistant", model: "m", content: [{ type: "text", text: text() }] },
      }),
    );
  }
  return `${lines.join("\n")}\n`;
}

/** Writes a session of `turns` turns (and `subagents` subagent files of as many) under `projectsDir`. */
export function writeFaultSession(
  projectsDir: string,
  sessionId: string,
  options: { readonly tag: string; readonly turns: number; readonly wordsPerTurn?: number; readonly subagents?: number },
): FaultSession {
  const { tag, turns } = options;
  const wordsPerTurn = options.wordsPerTurn ?? 40;
  const dir = path.join(projectsDir, FaultProject);
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${sessionId}.jsonl`);
  fs.writeFileSync(file, turnLines(sessionId, tag, turns, wordsPerTurn));
  const agents = new Map<string, { file: string; first: string; last: string }>();
  for (let k = 0; k < (options.subagents ?? 0); k++) {
    const agentId = `a${tag}${k}`;
    const agentTag = `${tag}x${word("", k).slice(1)}`;
    const agentFile = path.join(dir, sessionId, "subagents", `agent-${agentId}.jsonl`);
    fs.mkdirSync(path.dirname(agentFile), { recursive: true });
    fs.writeFileSync(agentFile, turnLines(sessionId, agentTag, turns, wordsPerTurn, agentId));
    agents.set(agentId, { file: agentFile, first: `${agentTag}first`, last: `${agentTag}last` });
  }
  return { file, first: `${tag}first`, middle: `${tag}middle`, last: `${tag}last`, agents };
}
