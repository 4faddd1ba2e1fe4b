// The person's own permission rules (issue 22, "The person's own rules"), in Claude Code's syntax
// (ruleSyntax.ts) and in Baton's config folder: `rules.json` beside `settings.json` (wherever
// settingsFile.ts puts that), never in ~/.claude, whose settings belong to the CLI.
// * Scopes: `session` rules live in memory only, keyed by session id, gone with the session;
//   `project` rules are keyed by the project folder's real path, so a link or `..` to the same
//   folder finds them; `everywhere` rules apply to every session.
// * The file `{version: 1, rules: [...]}` is validated on load (zod); a problem names the file,
//   the rule's index and the field. A broken file puts none of its rules in force and is never
//   overwritten: adding or deleting a stored rule is refused until the person fixes the file (and
//   Baton reloads it) or sets it aside (`setAside`, which keeps its text under another name).
// * Every write re-reads the file first (a hand edit since the last load is kept), runs one at a
//   time, and is atomic: a temp file (0600, in a folder made 0700) renamed over the old one.
// * A file that is not the person's alone (another's, writable by others, in a folder others can
//   write, over 1 MB: trustedConfigFile.ts) is refused like a broken one: none of its rules hold,
//   and it is not written over until the person fixes it or sets it aside.

import { randomUUID } from "node:crypto";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import type { PermissionRule, RuleBehavior, RuleScope } from "../../../shared/policy.js";
import { canonicalRule } from "../../../shared/ruleSyntax.js";
import { mayBeInsideDir, realPathSync } from "../../platform/containedPath.js";
import { readTrustedConfigFile, refusalMessage } from "../../platform/trustedConfigFile.js";

export const RULES_FILE_NAME = "rules.json";
export const RULES_FILE_VERSION = 1;

/** rules.json's place: the folder of settings.json, whichever that is (desktop userData, web mode's config folder). */
export function rulesFileBeside(settingsFile: string): string {
  return path.join(path.dirname(settingsFile), RULES_FILE_NAME);
}

export interface NewRule {
  readonly behavior: RuleBehavior;
  /** Claude Code's syntax; stored in its canonical form (ruleSyntax.ts `formatRule`). */
  readonly rule: string;
  readonly scope: RuleScope;
  /** `session`: the session id; `project`: the project folder (any path to it); `everywhere`: none. */
  readonly scopeKey?: string;
  /** `prompt`, `rules-view`, … */
  readonly origin: string;
}

/** What names one rule, for deleting it (as `list` gives it). */
export type RuleKey = Pick<PermissionRule, "behavior" | "rule" | "scope" | "scopeKey">;

export type RulesResult<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: string };

export interface RuleBookOptions {
  readonly file: string;
  /** Whose ~/.claude is out of bounds; the process's home by default. */
  readonly home?: string;
  readonly now?: () => Date;
}

const StoredRule = z
  .object({
    behavior: z.enum(["allow", "ask", "deny"]),
    rule: z.string().superRefine((text, ctx) => {
      const parsed = canonicalRule(text);
      if (!parsed.ok) ctx.addIssue({ code: "custom", message: parsed.error });
    }),
    scope: z.enum(["project", "everywhere"], { error: 'expected "project" or "everywhere" (session rules are never stored)' }),
    scopeKey: z.string().optional(),
    origin: z.string().min(1),
    createdAt: z.iso.datetime(),
  })
  .superRefine((rule, ctx) => {
    if (rule.scope === "project" && (rule.scopeKey === undefined || !path.isAbsolute(rule.scopeKey))) {
      ctx.addIssue({ code: "custom", path: ["scopeKey"], message: "a project rule needs the project folder's absolute path" });
    }
    if (rule.scope === "everywhere" && rule.scopeKey !== undefined) {
      ctx.addIssue({ code: "custom", path: ["scopeKey"], message: "an everywhere rule has no scopeKey" });
    }
  });

const RulesFile = z.object({ version: z.literal(RULES_FILE_VERSION), rules: z.array(StoredRule) });

type Read = { readonly ok: true; readonly rules: readonly PermissionRule[] } | { readonly ok: false; readonly problem: string };

export class RuleBook {
  readonly file: string;
  private readonly now: () => Date;
  private readonly forbidden: string | undefined;
  private stored: readonly PermissionRule[] = [];
  private readonly sessions = new Map<string, readonly PermissionRule[]>();
  private problemText: string | undefined;
  private writes: Promise<unknown> = Promise.resolve();
  private readonly projectKeys = new Map<string, string>();

  constructor(options: RuleBookOptions) {
    this.file = path.resolve(options.file);
    this.now = options.now ?? (() => new Date());
    const claudeDir = path.join(options.home ?? os.homedir(), ".claude");
    this.forbidden = mayBeInsideDir(this.file, claudeDir)
      ? `refusing to keep Baton's rules inside ${claudeDir} (${this.file}): that folder is the CLI's; no stored rules are in force`
      : undefined;
    this.reload();
  }

  /** Why the file's rules are not in force, if they are not. */
  get problem(): string | undefined {
    return this.problemText;
  }

  /** Reads the file again (after the person fixed it, say); returns the problem, if any. */
  reload(): string | undefined {
    const read = this.read();
    this.stored = read.ok ? read.rules : [];
    this.problemText = read.ok ? undefined : read.problem;
    return this.problemText;
  }

  /** Every rule in force: each session's, then the stored ones, each with its scope and origin. */
  list(): readonly PermissionRule[] {
    return [...[...this.sessions.values()].flat(), ...this.stored];
  }

  /** The rules that apply to one session in one project folder. */
  rulesFor(sessionId: string, projectDir: string): readonly PermissionRule[] {
    const project = this.projectKey(projectDir);
    const stored = this.stored.filter((r) => r.scope === "everywhere" || r.scopeKey === project);
    return [...(this.sessions.get(sessionId) ?? []), ...stored];
  }

  /** Adds a rule (or finds the same one already there); the rule as kept. */
  add(rule: NewRule): Promise<RulesResult<PermissionRule>> {
    const canonical = canonicalRule(rule.rule);
    if (!canonical.ok) return Promise.resolve(canonical);
    if (rule.scope !== "everywhere" && (rule.scopeKey === undefined || rule.scopeKey === "")) {
      return Promise.resolve({ ok: false, error: `a ${rule.scope} rule needs its ${rule.scope === "session" ? "session id" : "project folder"}` });
    }
    const kept: PermissionRule = {
      behavior: rule.behavior,
      rule: canonical.value,
      scope: rule.scope,
      ...(rule.scope === "session" ? { scopeKey: rule.scopeKey } : rule.scope === "project" ? { scopeKey: this.projectKey(rule.scopeKey as string) } : {}),
      origin: rule.origin,
      createdAt: this.now().toISOString(),
    };
    if (kept.scope === "session") {
      const key = kept.scopeKey as string;
      const rules = this.sessions.get(key) ?? [];
      const same = rules.find((r) => sameRule(r, kept));
      if (same !== undefined) return Promise.resolve({ ok: true, value: same });
      this.sessions.set(key, [...rules, kept]);
      return Promise.resolve({ ok: true, value: kept });
    }
    return this.change((rules) => {
      const same = rules.find((r) => sameRule(r, kept));
      return same !== undefined ? { rules, value: same } : { rules: [...rules, kept], value: kept };
    });
  }

  /** Deletes a rule; false when there was no such rule. */
  delete(key: RuleKey): Promise<RulesResult<boolean>> {
    if (key.scope === "session") {
      const rules = this.sessions.get(key.scopeKey ?? "") ?? [];
      const left = rules.filter((r) => !sameRule(r, key));
      if (left.length === rules.length) return Promise.resolve({ ok: true, value: false });
      if (left.length === 0) this.sessions.delete(key.scopeKey ?? "");
      else this.sessions.set(key.scopeKey ?? "", left);
      return Promise.resolve({ ok: true, value: true });
    }
    const stored = key.scope === "project" && key.scopeKey !== undefined ? { ...key, scopeKey: this.projectKey(key.scopeKey) } : key;
    return this.change((rules) => {
      const left = rules.filter((r) => !sameRule(r, stored));
      return left.length === rules.length ? { rules, value: false } : { rules: left, value: true };
    });
  }

  /** The session ended: its rules go. */
  forgetSession(sessionId: string): void {
    this.sessions.delete(sessionId);
  }

  /**
   * The person's answer to a broken file: it is renamed `rules.json.broken-<time>` (its text kept
   * for them to mend or copy from) and Baton starts from no stored rules. Returns the new name.
   */
  setAside(): Promise<RulesResult<string>> {
    return this.queued(async () => {
      if (this.forbidden !== undefined) return { ok: false, error: this.forbidden };
      const read = this.read();
      if (read.ok) return { ok: false, error: `${this.file} is not broken; nothing was set aside` };
      const aside = `${this.file}.broken-${this.now().toISOString().replace(/[:.]/g, "-")}`;
      try {
        await fsp.rename(this.file, aside);
      } catch (error) {
        return { ok: false, error: `${this.file} could not be set aside: ${(error as Error).message}` };
      }
      this.reload();
      return { ok: true, value: aside };
    });
  }

  /** Re-reads the stored rules, applies `edit`, writes them back: one change at a time. */
  private change<T>(edit: (rules: readonly PermissionRule[]) => { rules: readonly PermissionRule[]; value: T }): Promise<RulesResult<T>> {
    return this.queued(async () => {
      const read = this.read();
      if (!read.ok) {
        this.stored = [];
        this.problemText = read.problem;
        return { ok: false, error: `${read.problem}. The file was not changed: fix it, or set it aside, first` };
      }
      const { rules, value } = edit(read.rules);
      if (rules !== read.rules) {
        try {
          await writeAtomically(this.file, `${JSON.stringify({ version: RULES_FILE_VERSION, rules }, null, 2)}\n`);
        } catch (error) {
          return { ok: false, error: `${this.file} could not be written: ${(error as Error).message}` };
        }
      }
      this.stored = rules;
      this.problemText = undefined;
      return { ok: true, value };
    });
  }

  private queued<T>(job: () => Promise<T>): Promise<T> {
    const next = this.writes.then(job);
    this.writes = next.catch(() => undefined);
    return next;
  }

  private read(): Read {
    if (this.forbidden !== undefined) return { ok: false, problem: this.forbidden };
    return readRulesFile(this.file);
  }

  private projectKey(projectDir: string): string {
    let key = this.projectKeys.get(projectDir);
    if (key === undefined) {
      key = realPathSync(projectDir);
      this.projectKeys.set(projectDir, key);
    }
    return key;
  }
}

/**
 * The rules a file holds, or why none of them are in force. A missing file holds none; a file that
 * is not the person's alone (trustedConfigFile.ts) is not read: its writer could allow anything.
 */
export function readRulesFile(file: string): Read {
  const read = readTrustedConfigFile(file);
  if (read.kind === "missing") return { ok: true, rules: [] };
  if (read.kind === "refused") return { ok: false, problem: refusalMessage(read.refusal, "none of its rules are in force") };
  if (read.kind === "unreadable") return { ok: false, problem: `${file} could not be read (${read.error}); none of its rules are in force` };
  let value: unknown;
  try {
    value = JSON.parse(read.text);
  } catch (error) {
    return { ok: false, problem: `${file} is not JSON (${(error as Error).message}); none of its rules are in force` };
  }
  const version = typeof value === "object" && value !== null ? (value as Record<string, unknown>)["version"] : undefined;
  if (typeof version === "number" && version !== RULES_FILE_VERSION) {
    return { ok: false, problem: `${file} is version ${version}, and this Baton reads version ${RULES_FILE_VERSION}; none of its rules are in force` };
  }
  const parsed = RulesFile.safeParse(value);
  if (!parsed.success) {
    const issues = parsed.error.issues.slice(0, 5).map((issue) => `${fieldPath(issue.path)}: ${issue.message}`);
    return { ok: false, problem: `${file}: ${issues.join("; ")}; none of its rules are in force` };
  }
  return { ok: true, rules: parsed.data.rules.map(toRule) };
}

function toRule(stored: z.infer<typeof StoredRule>): PermissionRule {
  return {
    behavior: stored.behavior,
    rule: stored.rule,
    scope: stored.scope,
    ...(stored.scopeKey !== undefined ? { scopeKey: stored.scopeKey } : {}),
    origin: stored.origin,
    createdAt: stored.createdAt,
  };
}

/** `rules[2].behavior`, as a person reads a place in the file. */
function fieldPath(at: readonly PropertyKey[]): string {
  if (at.length === 0) return "the file";
  return at.map((p, i) => (typeof p === "number" ? `[${p}]` : `${i === 0 ? "" : "."}${String(p)}`)).join("");
}

function sameRule(a: RuleKey, b: RuleKey): boolean {
  if (a.behavior !== b.behavior || a.scope !== b.scope || a.scopeKey !== b.scopeKey) return false;
  const ca = canonicalRule(a.rule);
  const cb = canonicalRule(b.rule);
  return ca.ok && cb.ok ? ca.value === cb.value : a.rule === b.rule;
}

async function writeAtomically(file: string, text: string): Promise<void> {
  await fsp.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const temp = `${file}.${process.pid}.${randomUUID()}.tmp`;
  try {
    // A new file only (wx): never through a link or over a file someone placed under the temp name.
    await fsp.writeFile(temp, text, { mode: 0o600, flag: "wx" });
    await fsp.rename(temp, file);
  } catch (error) {
    await fsp.rm(temp, { force: true });
    throw error;
  }
}
