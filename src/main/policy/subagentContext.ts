// What a preset subagent is told about where it works: the
// workspace, its worktree if any, and the `> Task:` line and the `## Context` and `## Commands`
// sections of the project's MEMORY.md, when that file exists. The conductor writes the task; the
// harness fills in the rest, so the conductor need not repeat it in every spawn. A missing or
// unreadable MEMORY.md adds nothing (it is the person's file, not Baton's).

import path from "node:path";
import { readRegularFileTextSync } from "../platform/regularFile.js";

/** More than this of MEMORY.md is not read: the sections are short by design. */
const MaxMemoryBytes = 256 * 1024;
/** Each injected section is cut to this many characters. */
const MaxSectionChars = 8000;

export const MemoryFileName = "MEMORY.md";

export interface MemorySections {
  readonly task?: string;
  readonly context?: string;
  readonly commands?: string;
}

/** The sections the environment takes from a MEMORY.md's text. Pure. */
export function memorySections(text: string): MemorySections {
  const lines = text.split(/\r?\n/);
  const task = lines.find((l) => /^>\s*Task:/i.test(l))?.replace(/^>\s*Task:\s*/i, "").trim();
  return {
    ...(task ? { task: cut(task) } : {}),
    ...optional("context", section(lines, "Context")),
    ...optional("commands", section(lines, "Commands")),
  };
}

/** The block appended to a preset subagent's prompt. Pure. */
export function environmentBlock(workspace: string, worktree: string | undefined, memory: MemorySections): string {
  const parts = [`Workspace: ${workspace}`];
  if (worktree !== undefined) parts.push(`Worktree (write here): ${worktree}`);
  if (memory.task !== undefined) parts.push(`Task (from MEMORY.md): ${memory.task}`);
  if (memory.context !== undefined) parts.push(`## Context (from MEMORY.md)\n${memory.context}`);
  if (memory.commands !== undefined) parts.push(`## Commands (from MEMORY.md)\n${memory.commands}`);
  return `<baton-environment>\n${parts.join("\n\n")}\n</baton-environment>`;
}

/** MEMORY.md's sections from the workspace, or none when the file is absent or not readable. */
export function readMemorySections(workspace: string): MemorySections {
  try {
    const text = readRegularFileTextSync(path.join(workspace, MemoryFileName));
    return memorySections(text.length > MaxMemoryBytes ? text.slice(0, MaxMemoryBytes) : text);
  } catch {
    return {};
  }
}

function section(lines: readonly string[], title: string): string | undefined {
  const start = lines.findIndex((l) => new RegExp(`^##\\s+${title}\\s*$`, "i").test(l));
  if (start < 0) return undefined;
  const end = lines.findIndex((l, i) => i > start && /^#{1,2}\s/.test(l));
  const body = lines
    .slice(start + 1, end < 0 ? undefined : end)
    .join("\n")
    .trim();
  return body === "" ? undefined : cut(body);
}

function optional<K extends string>(key: K, value: string | undefined): { [P in K]?: string } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: string };
}

function cut(text: string): string {
  return text.length > MaxSectionChars ? `${text.slice(0, MaxSectionChars)}…` : text;
}
