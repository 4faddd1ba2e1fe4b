// What the CLI reports in its answer to `initialize`: slash commands, agents,
// models. Read leniently: a missing list is empty, the raw answer is kept for anything else.

import type { Json, JsonObject } from "../../shared/protocol/messages.js";

export interface SlashCommandInfo {
  readonly name: string;
  readonly description?: string;
  readonly argumentHint?: string;
}
export interface AgentInfo {
  readonly name: string;
  readonly description?: string;
  readonly model?: string;
}
export interface ModelInfo {
  readonly value: string;
  readonly displayName?: string;
  readonly resolvedModel?: string;
  readonly description?: string;
}

export interface InitializeResult {
  readonly commands: readonly SlashCommandInfo[];
  readonly agents: readonly AgentInfo[];
  readonly models: readonly ModelInfo[];
  readonly outputStyle?: string;
  /** The CLI's process id as it reports it. */
  readonly pid?: number;
  readonly raw: JsonObject;
}

export function parseInitializeResponse(response: JsonObject | undefined): InitializeResult {
  const raw = response ?? {};
  const commands = objects(raw.commands).flatMap((c): SlashCommandInfo[] =>
    typeof c.name === "string"
      ? [{ name: c.name, ...str("description", c.description), ...str("argumentHint", c.argumentHint) }]
      : [],
  );
  const agents = objects(raw.agents).flatMap((a): AgentInfo[] =>
    typeof a.name === "string" ? [{ name: a.name, ...str("description", a.description), ...str("model", a.model) }] : [],
  );
  const models = objects(raw.models).flatMap((m): ModelInfo[] =>
    typeof m.value === "string"
      ? [
          {
            value: m.value,
            ...str("displayName", m.displayName),
            ...str("resolvedModel", m.resolvedModel),
            ...str("description", m.description),
          },
        ]
      : [],
  );
  return {
    commands,
    agents,
    models,
    ...str("outputStyle", raw.output_style),
    ...(typeof raw.pid === "number" ? { pid: raw.pid } : {}),
    raw,
  };
}

function objects(value: Json | undefined): JsonObject[] {
  if (!Array.isArray(value)) return [];
  return value.filter((v): v is JsonObject => typeof v === "object" && v !== null && !Array.isArray(v));
}

function str<K extends string>(key: K, value: Json | undefined): { [P in K]?: string } {
  return (typeof value === "string" ? { [key]: value } : {}) as { [P in K]?: string };
}
