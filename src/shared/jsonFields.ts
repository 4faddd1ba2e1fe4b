// Typed reads of untyped JSON: transcript lines on disk and the CLI's stdout come from many CLI
// versions, so every field beyond what the parser checks is optional and checked where it is read.

import type { Json, JsonObject } from "./protocol/messages.js";

export function isObject(value: Json | undefined): value is JsonObject {
  return value !== null && value !== undefined && typeof value === "object" && !Array.isArray(value);
}

export function str(o: JsonObject | undefined, key: string): string | undefined {
  const v = o?.[key];
  return typeof v === "string" ? v : undefined;
}

export function num(o: JsonObject | undefined, key: string): number | undefined {
  const v = o?.[key];
  return typeof v === "number" && Number.isFinite(v) ? v : undefined;
}

export function obj(o: JsonObject | undefined, key: string): JsonObject | undefined {
  const v = o?.[key];
  return isObject(v) ? v : undefined;
}

export function arr(o: JsonObject | undefined, key: string): readonly Json[] | undefined {
  const v = o?.[key];
  return Array.isArray(v) ? (v as readonly Json[]) : undefined;
}

export function bool(o: JsonObject | undefined, key: string): boolean {
  return o?.[key] === true;
}

/** Text of a string or a list of `{type:"text",text}` blocks, joined by newlines. */
export function textOf(content: Json | undefined): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  const parts: string[] = [];
  for (const item of content as readonly Json[]) {
    if (typeof item === "string") parts.push(item);
    else if (isObject(item) && typeof item["text"] === "string") parts.push(item["text"]);
  }
  return parts.join("\n");
}
