// Works out who is asking (which scripted agent, which turn) and what kind of request a
// Messages API call is. The CLI's request bodies vary: `messages` may contain {"role":"system"}
// entries (the agent listing), user content may be a string or a list of blocks, and the main
// agent's user messages carry <system-reminder> text blocks.

export type SideKind =
  | "title"
  | "compact"
  | "suggestion"
  | "count_tokens"
  | "preflight"
  | "other"
  | "not_found";

export type Classification =
  | { readonly kind: "agent"; readonly agent: string; readonly turn: number }
  | { readonly kind: "side"; readonly side: SideKind; readonly agent: string; readonly turn: number };

interface ApiMessage {
  readonly role?: unknown;
  readonly content?: unknown;
}

const MARKER = /\[\[([A-Za-z0-9_.:-]+)\]\]/;
const COMPACT = /create a detailed summary of the conversation/i;
const REMINDER = /<system-reminder>[\s\S]*?<\/system-reminder>/g;

/** Text of a message's content: a string, or the concatenated text blocks of a block list. */
export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  const parts: string[] = [];
  for (const block of content) {
    if (block && typeof block === "object" && (block as { type?: unknown }).type === "text") {
      const text = (block as { text?: unknown }).text;
      if (typeof text === "string") parts.push(text);
    }
  }
  return parts.join("\n");
}

/** Text of a `system` field (string or list of text blocks). */
function systemText(system: unknown): string {
  return contentText(system);
}

function messagesOf(body: Record<string, unknown>): readonly ApiMessage[] {
  const messages = body["messages"];
  return Array.isArray(messages) ? (messages as ApiMessage[]) : [];
}

/** The agent marker `[[NAME]]` in the first user message, ignoring system reminders. */
export function agentOf(messages: readonly ApiMessage[]): string {
  const firstUser = messages.find((m) => m.role === "user");
  if (!firstUser) return "main";
  const text = contentText(firstUser.content).replace(REMINDER, "");
  return MARKER.exec(text)?.[1] ?? "main";
}

/** Turn number = assistant messages already in the conversation. */
export function turnOf(messages: readonly ApiMessage[]): number {
  return messages.filter((m) => m.role === "assistant").length;
}

/** Text of the last user message (tool results are not text, so this may be empty). */
export function lastUserText(messages: readonly ApiMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role === "user") return contentText(m.content);
  }
  return "";
}

function hasTools(body: Record<string, unknown>): boolean {
  const tools = body["tools"];
  return Array.isArray(tools) && tools.length > 0;
}

function sideKindOf(body: Record<string, unknown>, messages: readonly ApiMessage[]): SideKind {
  const last = lastUserText(messages);
  if (/summar/i.test(last) && /conversation/i.test(last)) return "compact";
  const system = systemText(body["system"]);
  if (/\btitle\b/i.test(system) || /\btitle\b/i.test(last)) return "title";
  if (messages.length === 1 && body["max_tokens"] === 1) return "preflight";
  return "other";
}

/** Classifies a request by HTTP method, path and parsed JSON body. */
export function classify(method: string, path: string, body: Record<string, unknown>): Classification {
  const messages = messagesOf(body);
  const agent = agentOf(messages);
  const turn = turnOf(messages);
  const side = (s: SideKind): Classification => ({ kind: "side", side: s, agent, turn });
  if (method !== "POST") return side(path === "/" ? "preflight" : "not_found");
  if (path === "/v1/messages/count_tokens") return side("count_tokens");
  if (path !== "/v1/messages") return side("not_found");
  const last = lastUserText(messages);
  if (last.includes("[SUGGESTION MODE:")) return side("suggestion");
  // Compaction requests carry the agent's tools; only the instruction in the last user message tells.
  if (COMPACT.test(last)) return side("compact");
  if (!hasTools(body)) return side(sideKindOf(body, messages));
  return { kind: "agent", agent, turn };
}
