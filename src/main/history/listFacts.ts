// What the session list takes from a transcript's lines: where and when it ran (the envelope's
// cwd, branch and times), its titles, its Agent calls, and its prompts, by the rules a restore
// uses (DiskMapper.noteFacts and noteEvents; diskToEvents' user, queued-command and local-command
// lines): a command the person ran counts as a prompt and its output does not; a notification,
// an interrupt and a meta line are no prompts; the first real prompt (sessionTitle.ts FirstPrompt)
// names the session. Read here in a few field lookups rather than through the event stream,
// which would build (and bound, and share) the events of every line for a list that throws them
// away; a test holds the two to the same counts over every recording.

import type { Json, JsonObject } from "../../shared/protocol/messages.js";
import { parseCommandEcho, userTextKind } from "../../shared/commandEcho.js";
import { FirstPrompt } from "../../shared/sessionTitle.js";
import { isAgentToolCall } from "../../shared/transcript.js";
import { arr, bool, isObject, obj, str, textOf } from "../../shared/jsonFields.js";
import { isTaskNotificationText } from "./taskNotification.js";

const InterruptPrefix = "[Request interrupted by user";

export class ListFacts {
  cwd: string | undefined;
  gitBranch: string | undefined;
  firstTimestamp: string | undefined;
  lastTimestamp: string | undefined;
  customTitle: string | undefined;
  aiTitle: string | undefined;
  summary: string | undefined;
  /** Prompts the person sent (commands count, their output does not). */
  promptCount = 0;
  /** The first real prompt (sessionTitle.ts): the title of a session that has no other. */
  private readonly first = new FirstPrompt();
  /** The Agent (or Task) calls' tool_use ids, the nested agents' in an old layout's inline lines too. */
  readonly agentCalls = new Set<string>();

  line(line: JsonObject): void {
    const timestamp = str(line, "timestamp");
    if (timestamp !== undefined) {
      if (this.firstTimestamp === undefined || timestamp < this.firstTimestamp) this.firstTimestamp = timestamp;
      if (this.lastTimestamp === undefined || timestamp > this.lastTimestamp) this.lastTimestamp = timestamp;
    }
    this.cwd ??= str(line, "cwd");
    this.gitBranch = str(line, "gitBranch") ?? this.gitBranch;
    switch (str(line, "type")) {
      case "custom-title":
        this.customTitle = str(line, "customTitle") ?? this.customTitle;
        break;
      case "ai-title":
        this.aiTitle = str(line, "aiTitle") ?? this.aiTitle;
        break;
      case "summary":
        this.summary ??= str(line, "summary");
        break;
      case "assistant":
        this.noteAgentCalls(line);
        break;
      case "user":
        // A subagent's own lines kept inside the file (old layouts) hold its prompts, not the session's.
        if (!bool(line, "isSidechain")) this.notePrompt(line, userText(line));
        break;
      case "system":
        // Newer CLIs write a slash command and its output as system lines: the same prompts.
        if (!bool(line, "isSidechain") && str(line, "subtype") === "local_command") {
          const content = str(line, "content");
          if (content !== undefined && content.trim() !== "" && parseCommandEcho(content) !== undefined) this.countPrompt(content);
        }
        break;
      case "attachment":
        // A message typed while a turn ran.
        if (!bool(line, "isSidechain") && str(obj(line, "attachment"), "type") === "queued_command") {
          const text = textOf(obj(line, "attachment")?.["prompt"] ?? null);
          if (text !== "") this.notePrompt(line, { text, images: false });
        }
        break;
    }
  }

  private notePrompt(line: JsonObject, user: UserText | undefined): void {
    if (user === undefined) return;
    const { text, images } = user;
    if (!images && text.startsWith(InterruptPrefix)) return;
    if (isTaskNotificationText(text) || obj(line, "origin")?.["kind"] === "task-notification") return;
    if (bool(line, "isMeta") || bool(line, "isCompactSummary") || bool(line, "isVisibleInTranscriptOnly")) return;
    this.countPrompt(text);
  }

  get firstPrompt(): string | undefined {
    return this.first.value;
  }

  private countPrompt(text: string): void {
    if (userTextKind(text) !== "output") this.promptCount++;
    this.first.note(text);
  }

  private noteAgentCalls(line: JsonObject): void {
    const message = obj(line, "message");
    const content = arr(message, "content") ?? [];
    for (let index = 0; index < content.length; index++) {
      const block = content[index];
      if (!isObject(block) || block["type"] !== "tool_use") continue;
      if (!isAgentToolCall(str(block, "name") ?? "unknown", obj(block, "input"))) continue;
      // A hand-made call without an id gets the one a restore gives it (diskToEvents' wellFormed).
      const id = str(block, "id");
      this.agentCalls.add(id !== undefined && id !== "" ? id : `${str(line, "uuid") ?? str(message, "id") ?? ""}:${index}`);
    }
  }
}

interface UserText {
  readonly text: string;
  readonly images: boolean;
}

/** A user line's text and whether it sends an image; undefined when it holds neither (tool results only). */
function userText(line: JsonObject): UserText | undefined {
  const content = obj(line, "message")?.["content"];
  if (typeof content === "string") return { text: content, images: false };
  if (!Array.isArray(content)) return undefined;
  const texts: string[] = [];
  let images = false;
  for (const block of content as readonly Json[]) {
    if (!isObject(block)) continue;
    if (block["type"] === "text") texts.push(textOf([block]));
    else if (block["type"] === "image") images ||= isImage(block);
  }
  return texts.length > 0 || images ? { text: texts.join("\n"), images } : undefined;
}

function isImage(block: JsonObject): boolean {
  const source = obj(block, "source");
  return str(source, "type") === "base64" && str(source, "data") !== undefined;
}

/**
 * What makes an answer's line more than its envelope to the list: an Agent (or Task) call; or
 * where one value may end and the next begin, two written back to back (or just braces in a
 * string: then the line is parsed).
 */
const ParseMarks = /"subagent_type"|"name":"(?:Agent|Task)"|\}\s*\{/;
const EnvelopeKeys = [
  ["timestamp", '"timestamp":"'],
  ["cwd", '"cwd":"'],
  ["gitBranch", '"gitBranch":"'],
] as const;

/**
 * The envelope of an answer without an Agent call, read from its text: all ListFacts takes from
 * such a line, whose message (its text, thinking, tool calls) is most of its bytes. Only a line in
 * the CLI's own order is read so: its API message first (the first `"type":"` key is that
 * message's), then its envelope, whose keys are the last of their names in the line; any other,
 * one that may hold two values glued together, or a value with an escape in it is parsed (undefined).
 */
export function skimLine(line: string): JsonObject | undefined {
  const at = line.indexOf('"type":"');
  if (at === -1 || !line.startsWith('"type":"message"', at) || line.lastIndexOf('"type":"assistant"') === -1 || ParseMarks.test(line)) return undefined;
  const out: Record<string, string> = { type: "assistant" };
  for (const [key, pattern] of EnvelopeKeys) {
    const found = line.lastIndexOf(pattern);
    if (found === -1) continue;
    const start = found + pattern.length;
    const end = line.indexOf('"', start);
    if (end === -1) return undefined;
    const value = line.slice(start, end);
    if (value.includes("\\")) return undefined;
    out[key] = value;
  }
  return out;
}

