// The presets as data the person can edit: `presets.json` in Baton's config folder, beside
// settings.json. Read once, validated whole: a file with any mistake is not used at all (half a
// policy is worse than the built-ins), and the problem names the file, the preset and the field,
// so the person can fix it. Missing: the built-ins, silently. `resetPresets` writes the built-ins
// back, which is also how a person gets a file to start editing from.

import { randomUUID } from "node:crypto";
import fsp from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { networkPatternProblem, type Preset, type PresetSet, type RefusedCommand } from "../../../shared/policy.js";
import { readTrustedConfigFile, refusalMessage } from "../../platform/trustedConfigFile.js";
import { builtinPresetSet } from "./builtinPresets.js";

export const PRESETS_FILE_NAME = "presets.json";
export const PRESETS_FILE_VERSION = 1;

/** The presets file beside a settings file (the desktop app's userData, or web mode's config folder). */
export function presetsFileBeside(settingsFile: string): string {
  return path.join(path.dirname(settingsFile), PRESETS_FILE_NAME);
}

/** Why a command pattern cannot be used, or undefined when it can (see CommandPattern). */
export function commandPatternProblem(pattern: string): string | undefined {
  if (pattern.trim() === "") return "a command pattern cannot be empty";
  if (/[\\^$()[\]{}*+?]/.test(pattern)) return `"${pattern}" looks like a regular expression; a pattern is words separated by single spaces, each word's alternatives by |`;
  if (/[^\S ]/.test(pattern)) return `"${pattern}" holds a tab or line break; separate words by single spaces`;
  const words = pattern.split(" ");
  if (words.includes("")) return `"${pattern}" has an empty word (a leading, trailing or double space)`;
  if (words.some((word) => word.split("|").includes(""))) return `"${pattern}" has an empty alternative (a leading, trailing or double |)`;
  return undefined;
}

/** A zod error message: `missing` when the field is absent, else what was expected. */
function expected(what: string) {
  return { error: (issue: { readonly input?: unknown }) => (issue.input === undefined ? "missing" : `expected ${what}`) };
}

const Text = z.string(expected("a string")).min(1, "cannot be empty");

const Pattern = z.string(expected("a string")).superRefine((pattern, ctx) => {
  const problem = commandPatternProblem(pattern);
  if (problem !== undefined) ctx.addIssue({ code: "custom", message: problem });
});

const Host = z.string(expected("a string")).superRefine((pattern, ctx) => {
  const problem = networkPatternProblem(pattern);
  if (problem !== undefined) ctx.addIssue({ code: "custom", message: problem });
});

/** Agent type names the CLI is given as `initialize.agents` keys. */
const Name = z.string(expected("a string")).regex(/^[a-z][a-z0-9_-]*$/, "must be lowercase letters, digits, - or _, starting with a letter");

const PresetEntry = z.strictObject(
  {
    name: Name,
    character: z.enum(["exploratory", "deliberate"], expected(`"exploratory" or "deliberate"`)),
    description: Text,
    // An array is joined with line breaks: long prompts stay editable in a JSON file.
    prompt: z.union([Text, z.array(z.string(), { error: "expected a string" }).min(1, "cannot be empty")], expected("a string or an array of lines")),
    tools: z.array(z.string(expected("a string")).regex(/^[A-Za-z][A-Za-z0-9_-]*$/, "must be a tool name such as Read or Bash"), expected("an array of tool names")),
    // Left out: the safe side (no commands, no writes, no spawns).
    exec: z.array(Pattern, expected("an array of command patterns")).default([]),
    write: z.enum(["none", "write-root"], expected(`"none" or "write-root"`)).default("none"),
    network: z.array(Host, expected("an array of host patterns")).default([]),
    spawns: z.array(Name, expected("an array of preset names")).default([]),
  },
  { error: "expected a preset object" },
);

const RefusedEntry = z.strictObject({ pattern: Pattern, reason: Text }, { error: "expected an object with pattern and reason" });

const PresetsFileSchema = z.strictObject(
  {
    version: z.literal(PRESETS_FILE_VERSION, expected(String(PRESETS_FILE_VERSION))),
    presets: z.array(PresetEntry, expected("an array of presets")),
    refused: z.array(RefusedEntry, expected("an array of refused commands")),
  },
  { error: `expected an object: { "version": ${PRESETS_FILE_VERSION}, "presets": [...], "refused": [...] }` },
);

type PresetsFileContent = z.output<typeof PresetsFileSchema>;

/**
 * The presets in force: the file's, or the built-ins when it is missing, broken or not the
 * person's alone (trustedConfigFile.ts: a file someone else can write would be their policy).
 * `problem` says why.
 */
export function readPresetsFile(file: string): PresetSet {
  const read = readTrustedConfigFile(file);
  if (read.kind === "missing") return builtinPresetSet();
  if (read.kind === "refused") return { ...builtinPresetSet(), problem: refusalMessage(read.refusal, "the built-in presets are in force") };
  if (read.kind === "unreadable") return broken(`${file}: could not be read (${read.error})`);
  let json: unknown;
  try {
    json = JSON.parse(read.text);
  } catch (error) {
    return broken(`${file}: not valid JSON (${(error as Error).message})`);
  }
  const parsed = parsePresetsFile(json);
  if (!parsed.ok) return broken(`${file}: ${parsed.problems.join("; ")}`);
  return { ...parsed.value, source: file };
}

export type PresetsParse =
  | { readonly ok: true; readonly value: { readonly presets: readonly Preset[]; readonly refused: readonly RefusedCommand[] } }
  | { readonly ok: false; readonly problems: readonly string[] };

/** Validates a presets file's parsed JSON; each problem names the preset and the field. */
export function parsePresetsFile(json: unknown): PresetsParse {
  const result = PresetsFileSchema.safeParse(json);
  if (!result.success) return { ok: false, problems: shortList(result.error.issues.map((issue) => describeIssue(issue, json))) };
  const problems = crossProblems(result.data);
  if (problems.length > 0) return { ok: false, problems: shortList(problems) };
  const presets = result.data.presets.map((entry): Preset => ({ ...entry, prompt: typeof entry.prompt === "string" ? entry.prompt : entry.prompt.join("\n") }));
  return { ok: true, value: { presets, refused: result.data.refused } };
}

/** The file's text for a set of presets; prompts as arrays of lines, so they read well in an editor. */
export function presetsFileText(set: Pick<PresetSet, "presets" | "refused">): string {
  const content = {
    version: PRESETS_FILE_VERSION,
    presets: set.presets.map((p) => ({ ...p, prompt: p.prompt.split("\n") })),
    refused: set.refused,
  };
  return `${JSON.stringify(content, null, 2)}\n`;
}

/**
 * Writes the built-ins to `file` (replacing whatever is there) and returns the set now in force.
 * Temp file and rename: a crash leaves the old file or the new one, never half of one.
 */
export async function resetPresets(file: string): Promise<PresetSet> {
  const dir = path.dirname(file);
  await fsp.mkdir(dir, { recursive: true, mode: 0o700 });
  const temp = path.join(dir, `.${path.basename(file)}.${process.pid}.${randomUUID()}.tmp`);
  try {
    await fsp.writeFile(temp, presetsFileText(builtinPresetSet()), { mode: 0o600, flag: "wx" });
    await fsp.rename(temp, file);
  } catch (error) {
    await fsp.rm(temp, { force: true });
    throw error;
  }
  return readPresetsFile(file);
}

function broken(problem: string): PresetSet {
  return { ...builtinPresetSet(), problem: `${problem}; the built-in presets are in force` };
}

const MaxProblems = 8;

function shortList(problems: readonly string[]): string[] {
  if (problems.length <= MaxProblems) return [...problems];
  return [...problems.slice(0, MaxProblems), `and ${problems.length - MaxProblems} more`];
}

/** Names, spawns: what the schema cannot see one preset at a time. */
function crossProblems(content: PresetsFileContent): string[] {
  const problems: string[] = [];
  const firstIndex = new Map<string, number>();
  content.presets.forEach((preset, index) => {
    const earlier = firstIndex.get(preset.name);
    if (earlier === undefined) firstIndex.set(preset.name, index);
    else problems.push(`presets[${index}]: name: "${preset.name}" is already the name of presets[${earlier}]`);
  });
  for (const preset of content.presets) {
    preset.spawns.forEach((name, index) => {
      if (!firstIndex.has(name)) problems.push(`preset "${preset.name}": spawns[${index}]: no preset is named "${name}"`);
    });
  }
  return problems;
}

function describeIssue(issue: z.core.$ZodIssue, json: unknown): string {
  const message = issue.code === "unrecognized_keys" ? issue.keys.map((key) => `unknown field "${key}"`).join(", ") : issue.message;
  const where = issueLocation(issue.path, json);
  return where === "" ? message : `${where}: ${message}`;
}

/** `preset "coder": exec[2]`, `presets[3]: name`, `refused[0].reason`. */
function issueLocation(at: readonly PropertyKey[], json: unknown): string {
  const [head, index, ...rest] = at;
  if (head === "presets" && typeof index === "number") {
    const label = presetLabel(json, index);
    return rest.length === 0 ? label : `${label}: ${fieldPath(rest)}`;
  }
  return fieldPath(at);
}

function presetLabel(json: unknown, index: number): string {
  const presets: unknown = typeof json === "object" && json !== null ? (json as { presets?: unknown }).presets : undefined;
  const entry: unknown = Array.isArray(presets) ? presets[index] : undefined;
  const name = typeof entry === "object" && entry !== null ? (entry as { name?: unknown }).name : undefined;
  return typeof name === "string" && name !== "" ? `preset ${JSON.stringify(name)}` : `presets[${index}]`;
}

function fieldPath(at: readonly PropertyKey[]): string {
  return at.map((key, i) => (typeof key === "number" ? `[${key}]` : i === 0 ? String(key) : `.${String(key)}`)).join("");
}
