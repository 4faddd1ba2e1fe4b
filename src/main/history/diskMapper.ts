// Turns the lines of one transcript file, in order, into ClientEvents, remembering what a
// history restore needs beyond single lines: the session's facts (cwd, titles, timestamps), the
// Agent/Task calls and the agent ids their results name, and subagent messages that old CLI
// versions kept inside the main file (inline `isSidechain` rows, `agent_progress` mirrors).

import { userTextKind } from "../../shared/commandEcho.js";
import type { ClientEvent, SessionInitEvent, TitleEvent } from "../../shared/events.js";
import type { JsonObject } from "../../shared/protocol/messages.js";
import { FirstPrompt } from "../../shared/sessionTitle.js";
import { isAgentToolCall } from "../../shared/transcript.js";
import { mapDiskLine } from "./diskToEvents.js";
import { bool, isObject, obj, str, textOf } from "../../shared/jsonFields.js";
import { workflowLaunchOf } from "../../shared/workflowLaunch.js";
import type { AgentCall } from "./agentCall.js";
import type { LineInserts } from "./lineInserts.js";

export interface SessionFacts {
  sessionId: string;
  cwd?: string;
  gitBranch?: string;
  version?: string;
  model?: string;
  permissionMode?: string;
  firstTimestamp?: string;
  lastTimestamp?: string;
  customTitle?: string;
  aiTitle?: string;
  summary?: string;
  firstPrompt?: string;
  promptCount: number;
}

export interface DiskMapperOptions {
  /** The session id (the file name): lines copied from other sessions do not change it. */
  readonly sessionId: string;
  /** Set for a sidechain file: every line belongs to the subagent of this Agent tool_use. */
  readonly sidechainOf?: string;
  /** A sidechain file opened on its own: its rows are the conversation, not a subagent's. */
  readonly standalone?: boolean;
  /** Events the restore adds after given lines (fork cards, side notes: lineInserts.ts). */
  readonly inserts?: LineInserts;
}

const AgentIdText = /agentId: ([A-Za-z0-9_-]+)/;
const MaxNamedSubtypes = 20;
const MaxSubtypeChars = 60;
/** The key the subtypes past `MaxNamedSubtypes` are counted under. */
export const OtherSubtypes = "(other subtypes)";


export class DiskMapper {
  readonly facts: SessionFacts;
  private readonly firstPrompt = new FirstPrompt();
  readonly agentCalls = new Map<string, AgentCall>();
  /** Subagent events found inside this file (old layouts), by the Agent tool_use id. */
  readonly embeddedSidechains = new Map<string, ClientEvent[]>();
  /** Workflow runs the file's Workflow calls launched: call id → run id. */
  readonly workflowRuns = new Map<string, string>();
  /** Inline sidechain rows no Agent call could be found for. */
  unlinkedSidechainLines = 0;
  /** Lines with values nested too deeply to keep, shown cut short (boundedJson.ts). */
  tooDeepLines = 0;
  /** `system` lines of subtypes Baton does not know, counted by subtype (a few kept by name). */
  readonly unknownSystemSubtypes = new Map<string, number>();

  private initSent = false;
  private readonly inlineTargetByUuid = new Map<string, string>();
  private readonly claimedByInline = new Set<string>();
  private readonly promptedTargets = new Set<string>();
  private readonly mirroredUuids = new Set<string>();

  constructor(private readonly options: DiskMapperOptions) {
    this.facts = { sessionId: options.sessionId, promptCount: 0 };
  }

  map(line: JsonObject): ClientEvent[] {
    const events = this.mapLine(line);
    this.options.inserts?.saw(events);
    const uuid = this.options.inserts === undefined ? undefined : str(line, "uuid");
    const added = uuid === undefined ? undefined : this.options.inserts?.take(uuid);
    return added === undefined ? events : this.withInit([...events, ...this.inserted(added)]);
  }

  /** The added events no line of the file placed (its line is gone or was never there): for the end. */
  insertedAtEnd(): ClientEvent[] {
    const rest = this.options.inserts?.rest() ?? [];
    return rest.length === 0 ? rest : this.withInit(this.inserted(rest));
  }

  private inserted(events: ClientEvent[]): ClientEvent[] {
    this.noteEvents(events, null);
    return events;
  }

  private mapLine(line: JsonObject): ClientEvent[] {
    this.noteFacts(line);
    if (this.options.sidechainOf !== undefined) return this.subagentEvents(this.options.sidechainOf, line);
    const type = str(line, "type");
    if (type === "custom-title" || type === "ai-title") return this.withInit(this.titleEvents(line));
    if (type === "progress") {
      this.mirror(line);
      return [];
    }
    if (bool(line, "isSidechain") && this.options.standalone !== true) {
      const target = this.inlineTarget(line);
      if (target === undefined) this.unlinkedSidechainLines++;
      else this.embed(target, this.subagentEvents(target, line));
      return [];
    }
    const events = this.lineEvents(line, null);
    this.noteEvents(events, null);
    return this.withInit(events);
  }

  /** The `session_init` a restore starts with, from what the file said. */
  initEvent(): SessionInitEvent {
    return {
      kind: "session_init",
      sessionId: this.facts.sessionId,
      cwd: this.facts.cwd ?? "",
      model: this.facts.model ?? "",
      permissionMode: this.facts.permissionMode ?? "default",
      tools: [],
      slashCommands: [],
      agents: [],
      ...(this.facts.version !== undefined ? { cliVersion: this.facts.version } : {}),
    };
  }

  private withInit(events: ClientEvent[]): ClientEvent[] {
    if (this.initSent || events.length === 0) return events;
    this.initSent = true;
    return [this.initEvent(), ...events];
  }

  private titleEvents(line: JsonObject): TitleEvent[] {
    const custom = str(line, "customTitle");
    if (custom !== undefined && custom !== "") return [{ kind: "title", title: custom, source: "custom" }];
    const ai = str(line, "aiTitle");
    // A title the person chose outranks any the model suggested later.
    if (ai !== undefined && ai !== "" && this.facts.customTitle === undefined) {
      return [{ kind: "title", title: ai, source: "ai" }];
    }
    return [];
  }

  /**
   * Events of one subagent line. Only the first prompt is kept (later ones are continuations), and
   * the subagent's own interrupt marker is left out: the main file has the one the person saw.
   */
  private subagentEvents(target: string, line: JsonObject): ClientEvent[] {
    const events = this.lineEvents(line, target).filter((event) => {
      if (event.kind === "interrupt_marker") return false;
      if (event.kind !== "user_prompt") return true;
      if (this.promptedTargets.has(target)) return false;
      this.promptedTargets.add(target);
      return true;
    });
    this.noteEvents(events, target);
    return events;
  }

  private lineEvents(line: JsonObject, parentToolUseId: string | null): ClientEvent[] {
    const { events, tooDeep, unknownSystem } = mapDiskLine(line, parentToolUseId);
    if (tooDeep > 0) this.tooDeepLines++;
    if (unknownSystem !== undefined) this.countUnknownSystem(unknownSystem);
    return events;
  }

  /** A hostile file can name a million subtypes: past a few names, the rest share one count. */
  private countUnknownSystem(subtype: string): void {
    const name = subtype.length > MaxSubtypeChars ? `${subtype.slice(0, MaxSubtypeChars)}…` : subtype;
    const key = this.unknownSystemSubtypes.has(name) || this.unknownSystemSubtypes.size < MaxNamedSubtypes ? name : OtherSubtypes;
    this.unknownSystemSubtypes.set(key, (this.unknownSystemSubtypes.get(key) ?? 0) + 1);
  }

  private embed(target: string, events: readonly ClientEvent[]): void {
    if (events.length === 0) return;
    const list = this.embeddedSidechains.get(target);
    if (list === undefined) this.embeddedSidechains.set(target, [...events]);
    else list.push(...events);
  }

  /** `agent_progress` lines mirror a subagent's messages into the main file (CLI 2.1.x). */
  private mirror(line: JsonObject): void {
    const data = obj(line, "data");
    const target = str(line, "parentToolUseID");
    const message = obj(data, "message");
    if (str(data, "type") !== "agent_progress" || target === undefined || message === undefined) return;
    const uuid = str(message, "uuid");
    if (uuid !== undefined) {
      if (this.mirroredUuids.has(uuid)) return;
      this.mirroredUuids.add(uuid);
    }
    const agentId = str(data, "agentId");
    const call = this.agentCalls.get(target);
    if (call !== undefined && call.agentId === undefined && agentId !== undefined) call.agentId = agentId;
    this.embed(target, this.subagentEvents(target, message));
  }

  /** Old layout: follow `parentUuid` chains; a chain's root is matched to its Task call by prompt. */
  private inlineTarget(line: JsonObject): string | undefined {
    const parentUuid = str(line, "parentUuid");
    let target = parentUuid !== undefined ? this.inlineTargetByUuid.get(parentUuid) : undefined;
    if (target === undefined) target = this.claimForRoot(line);
    const uuid = str(line, "uuid");
    if (target !== undefined && uuid !== undefined) this.inlineTargetByUuid.set(uuid, target);
    return target;
  }

  private claimForRoot(line: JsonObject): string | undefined {
    const prompt = str(line, "type") === "user" ? textOf(obj(line, "message")?.["content"] ?? null).trim() : "";
    const open = [...this.agentCalls.values()].filter((c) => !this.claimedByInline.has(c.toolUseId));
    const byPrompt = prompt !== "" ? open.find((c) => c.prompt.trim() === prompt) : undefined;
    // Without a prompt match, the oldest call still waiting for its result is the best guess.
    const chosen = byPrompt ?? (prompt === "" ? open.find((c) => !c.resultSeen) : undefined);
    if (chosen === undefined) return undefined;
    this.claimedByInline.add(chosen.toolUseId);
    return chosen.toolUseId;
  }

  private noteEvents(events: readonly ClientEvent[], parentToolUseId: string | null): void {
    for (const event of events) {
      if (event.kind === "assistant_block") this.noteAgentCall(event.block as unknown as JsonObject, parentToolUseId);
      else if (event.kind === "tool_result") {
        this.noteAgentResult(event.toolUseId, event.text, event.structured, event.isError);
        const run = workflowLaunchOf(event.structured)?.runId;
        if (run !== undefined) this.workflowRuns.set(event.toolUseId, run);
      }
      else if (event.kind === "user_prompt" && parentToolUseId === null && event.isMeta !== true) {
        // A command the user ran counts as a prompt, its output does not; the first real prompt
        // names the session (sessionTitle.ts: a command the CLI ran alone is none).
        if (userTextKind(event.text) !== "output") this.facts.promptCount++;
        this.firstPrompt.note(event.text);
        this.facts.firstPrompt = this.firstPrompt.value;
      }
    }
  }

  private noteAgentCall(block: JsonObject, parentToolUseId: string | null): void {
    const id = str(block, "id");
    const name = str(block, "name");
    const input = obj(block, "input");
    if (block["type"] !== "tool_use" || id === undefined || name === undefined) return;
    if (!isAgentToolCall(name, input)) return;
    this.agentCalls.set(id, {
      toolUseId: id,
      name,
      prompt: str(input, "prompt") ?? "",
      description: str(input, "description") ?? "",
      subagentType: str(input, "subagent_type") ?? "",
      background: bool(input, "run_in_background"),
      parentToolUseId,
      resultSeen: false,
      failed: false,
    });
  }

  private noteAgentResult(toolUseId: string, text: string, structured: unknown, isError: boolean): void {
    const call = this.agentCalls.get(toolUseId);
    if (call === undefined) return;
    call.resultSeen = true;
    call.failed = isError;
    const fromStructured = isObject(structured as never) ? str(structured as JsonObject, "agentId") : undefined;
    const agentId = fromStructured ?? AgentIdText.exec(text)?.[1];
    if (agentId !== undefined) call.agentId = agentId;
  }

  private noteFacts(line: JsonObject): void {
    const f = this.facts;
    const timestamp = str(line, "timestamp");
    if (timestamp !== undefined) {
      if (f.firstTimestamp === undefined || timestamp < f.firstTimestamp) f.firstTimestamp = timestamp;
      if (f.lastTimestamp === undefined || timestamp > f.lastTimestamp) f.lastTimestamp = timestamp;
    }
    f.cwd ??= str(line, "cwd");
    f.version ??= str(line, "version");
    f.gitBranch = str(line, "gitBranch") ?? f.gitBranch;
    f.permissionMode = str(line, "permissionMode") ?? f.permissionMode;
    const type = str(line, "type");
    if (type === "custom-title") f.customTitle = str(line, "customTitle") ?? f.customTitle;
    else if (type === "ai-title") f.aiTitle = str(line, "aiTitle") ?? f.aiTitle;
    else if (type === "summary") f.summary ??= str(line, "summary");
    else if (type === "assistant" && !bool(line, "isSidechain") && this.options.sidechainOf === undefined) {
      const model = str(obj(line, "message"), "model");
      if (model !== undefined && model !== "<synthetic>") f.model ??= model;
    }
  }
}
