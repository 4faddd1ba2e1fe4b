// `/subtask` forks (issue 21): the CLI forks the conversation into a background subagent with no
// Agent call anywhere. Its sidechain `agent-a<name>-<hex>.jsonl` has a meta
// `{"agentType":"fork","isFork":true,"name":…}` and starts with a `fork-context-ref` line naming
// the main line it was forked at (`parentLastUuid`); its answer comes back as a
// `<task-notification>` in the main file. A restore gives each fork the card a background Agent
// call would have: a launch (tool_use + `async_launched` receipt naming its agent id) after that
// line, so the linker finds its file by agent id and the notification completes the card.

import type { ClientEvent } from "../../shared/events.js";
import { obj, str, textOf } from "../../shared/jsonFields.js";
import { readJsonl } from "./jsonlReader.js";
import type { LineInsert } from "./lineInserts.js";
import type { HistoryProblem } from "./problems.js";
import { notRegularAt } from "../platform/regularFile.js";
import { insideProject, isCompactionAgent, readMeta, subagentsFolder } from "./subagentFolder.js";

/** Fork agent ids are `a<name>-<hex>`; anything else in a file name is not made into an id. */
const ForkId = /^a[A-Za-z0-9_]+(?:-[A-Za-z0-9_]+)*-[0-9a-f]{8,32}$/;
const ForkFile = /^agent-(.+)\.meta\.json$/;
/** The head lines read for the fork point and the prompt. */
const HeadLines = 8;

/** The card id of a fork: it has no tool_use id of its own. */
export function forkToolUseId(agentId: string): string {
  return `fork-${agentId}`;
}

export async function findForkCards(projectDir: string, sessionId: string, problems?: HistoryProblem[]): Promise<LineInsert[]> {
  const { where, names } = await subagentsFolder(projectDir, sessionId);
  const present = new Set(names);
  const out: LineInsert[] = [];
  for (const name of names) {
    const agentId = ForkFile.exec(name)?.[1];
    if (agentId === undefined || !ForkId.test(agentId) || isCompactionAgent(agentId)) continue;
    const metaPath = await insideProject(projectDir, [...where, name], "a subagent's meta.json");
    const meta = metaPath === undefined ? undefined : await readMeta(metaPath);
    if (meta?.isFork !== true) continue;
    const transcript = `agent-${agentId}.jsonl`;
    const file = present.has(transcript) ? await insideProject(projectDir, [...where, transcript], "a forked subagent's transcript", problems) : undefined;
    const head = file === undefined || (await notRegularAt(file)) !== undefined ? {} : await readForkHead(file);
    const description = meta.description ?? meta.name ?? agentId;
    out.push({ after: head.parentLastUuid, events: forkLaunch(agentId, description, head.prompt ?? "", head.timestamp), taskId: agentId });
  }
  return out;
}

interface ForkHead {
  readonly parentLastUuid?: string;
  readonly prompt?: string;
  readonly timestamp?: string;
}

async function readForkHead(file: string): Promise<ForkHead> {
  let parentLastUuid: string | undefined;
  let prompt: string | undefined;
  let timestamp: string | undefined;
  let seen = 0;
  try {
    await readJsonl(file, {
      final: true,
      onRecord: ({ value }) => {
        if (str(value, "type") === "fork-context-ref") parentLastUuid ??= str(value, "parentLastUuid");
        timestamp ??= str(value, "timestamp");
        if (str(value, "type") === "user" && prompt === undefined) {
          const text = textOf(obj(value, "message")?.["content"] ?? null);
          if (text !== "") prompt = text;
        }
        seen++;
        return prompt === undefined && seen < HeadLines;
      },
    });
  } catch {
    // An unreadable fork still gets its card; its steps say so when opened.
  }
  return { ...(parentLastUuid !== undefined ? { parentLastUuid } : {}), ...(prompt !== undefined ? { prompt } : {}), ...(timestamp !== undefined ? { timestamp } : {}) };
}

/** The events of a background Agent call's launch, for a fork's card. */
function forkLaunch(agentId: string, description: string, prompt: string, timestamp: string | undefined): ClientEvent[] {
  const toolUseId = forkToolUseId(agentId);
  const at = timestamp !== undefined ? { timestamp } : {};
  return [
    {
      kind: "assistant_block",
      messageId: toolUseId,
      parentToolUseId: null,
      ...at,
      block: { type: "tool_use", id: toolUseId, name: "Agent", input: { description, prompt, subagent_type: "fork", run_in_background: true } },
    },
    {
      kind: "tool_result",
      parentToolUseId: null,
      toolUseId,
      text: `Forked with /subtask as ${agentId}`,
      isError: false,
      structured: { isAsync: true, status: "async_launched", agentId, description, prompt },
      ...at,
    },
  ];
}
