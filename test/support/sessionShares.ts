// What the share tests (issue 37) read of a session that ran sharesScript: each file's model calls
// as the CLI recorded them, every agent record of a transcript, and a fork's copied cards opened
// the way the window opens them.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect } from "vitest";
import type { BatonService } from "../../src/main/core/batonService.js";
import type { SubagentRecord, Transcript } from "../../src/shared/transcript.js";
import { value } from "./apiValue.js";
import type { ModelServer } from "./modelServer.js";
import { transcriptWhen } from "./tabWatch.js";

const ShareWaitMs = 60_000;

/** The tab's transcript once `done` holds for it (a minute at most: the share tests run whole turns of the real CLI). */
export function shareWhen(service: BatonService, tabId: string, done: (t: Transcript) => boolean): Promise<Transcript> {
  return transcriptWhen(service, tabId, done, ShareWaitMs);
}

/** A history file's model calls, each message once: its input, cache read and cache creation tokens summed. */
function fileInputSide(file: string): { readonly calls: number; readonly tokens: number } {
  const calls = new Map<string, number>();
  for (const text of readFileSync(file, "utf8").split("\n")) {
    if (text.trim() === "") continue;
    const line = JSON.parse(text) as { type?: string; message?: { id?: string; usage?: Record<string, number> } };
    const usage = line.message?.usage;
    if (line.type !== "assistant" || usage === undefined) continue;
    calls.set(line.message!.id!, (usage["input_tokens"] ?? 0) + (usage["cache_read_input_tokens"] ?? 0) + (usage["cache_creation_input_tokens"] ?? 0));
  }
  return { calls: calls.size, tokens: [...calls.values()].reduce((a, b) => a + b, 0) };
}

/** What session `sessionId`'s files record: its main file's calls, the outer agent's ([[SUB-A]]) and the nested one's ([[SUB-B]]). */
export function sharesOnDisk(projectsDir: string, sessionId: string): Record<"main" | "outer" | "inner", { readonly calls: number; readonly tokens: number }> {
  const folder = readdirSync(projectsDir).find((f) => readdirSync(path.join(projectsDir, f)).includes(`${sessionId}.jsonl`))!;
  const subagents = path.join(projectsDir, folder, sessionId, "subagents");
  const agentFiles = readdirSync(subagents).filter((f) => /^agent-\w+\.jsonl$/.test(f)).map((f) => path.join(subagents, f));
  // Which file is whose: the agent's prompt is its file's first line.
  const fileOf = (marker: string) => agentFiles.find((f) => readFileSync(f, "utf8").split("\n")[0]!.includes(marker))!;
  return { main: fileInputSide(path.join(projectsDir, folder, `${sessionId}.jsonl`)), outer: fileInputSide(fileOf("[[SUB-A]]")), inner: fileInputSide(fileOf("[[SUB-B]]")) };
}

/** Every subagent record in the transcript, nested ones too. */
export function records(blocks: Transcript["blocks"]): SubagentRecord[] {
  return blocks.flatMap((b) => (b.call?.subagent === undefined ? [] : [b.call.subagent, ...records(b.call.subagent.blocks)]));
}

/**
 * The outer agent's card holds its share and is offered its file, unread (the window opens only
 * a card that has one); opening it offers the nested agent's, and that opens on its Bash.
 */
export async function opensNestedCard(service: BatonService, tabId: string, outerTokens: number): Promise<void> {
  const offered = (t: Transcript, marker: string) => records(t.blocks).find((r) => r.prompt.includes(marker) && r.sidechainPath !== undefined);
  const when = (done: (t: Transcript) => boolean) => shareWhen(service, tabId, done);
  const card = offered(await when((t) => offered(t, "[[SUB-A]]") !== undefined), "[[SUB-A]]")!;
  expect(card.inputTokens).toBe(outerTokens);
  expect(card.blocks).toEqual([]);
  const opened = when((t) => offered(t, "[[SUB-B]]") !== undefined);
  value(await service.loadSubagentBlocks(tabId, card.toolUseId));
  const nested = offered(await opened, "[[SUB-B]]")!;
  value(await service.loadSubagentBlocks(tabId, nested.toolUseId));
  await when((t) => records(t.blocks).find((r) => r.toolUseId === nested.toolUseId)?.blocks.some((b) => b.call?.name === "Bash") === true);
}

/**
 * Forks the tab from its prompt `from` with `words` (in a new worktree with `inNewWorktree`), once
 * the fork has its answer; `ownCalls`: the model's calls for the fork's run (the main thread's only).
 */
export async function forkAnswered(
  service: BatonService,
  model: ModelServer,
  tabId: string,
  shown: Transcript,
  from: string,
  words: string,
  inNewWorktree = false,
): Promise<{ readonly tabId: string; readonly transcript: Transcript; readonly ownCalls: number }> {
  const prompt = shown.blocks.find((b) => b.kind === "user" && b.text === from)!;
  const before = model.requests.length;
  const fork = value(await service.forkSession(tabId, prompt.id, words, inNewWorktree));
  const transcript = await shareWhen(service, fork.tabId, (t) => t.status === "idle" && t.blocks.at(-1)?.text === "Second answer." && t.blocks.some((b) => b.text === words));
  const calls = model.requests.slice(before).filter((r) => r.agent !== "side:preflight");
  expect(calls.map((r) => r.agent)).toEqual(["main"]);
  return { tabId: fork.tabId, transcript, ownCalls: calls.length };
}
