// The person's rules on disk (rules.json beside settings.json): adding, deduplicating, deleting
// and listing them per scope; project rules found through any path to the folder; a broken file
// that puts none of its rules in force, is reported by field and is never overwritten until the
// person fixes or sets it aside; hand edits kept; ~/.claude refused. Real temp files throughout.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { RULES_FILE_NAME, RuleBook, rulesFileBeside } from "../../src/main/policy/rules/ruleBook.js";
import { tempDirs } from "../support/tempDirs.js";

const tempDir = tempDirs("baton-rules-");

function setup(): { root: string; file: string; home: string; project: string } {
  const root = tempDir();
  const home = path.join(root, "home");
  const project = path.join(root, "code", "app");
  fs.mkdirSync(project, { recursive: true });
  fs.mkdirSync(home, { recursive: true });
  return { root, file: path.join(root, "config", "baton", RULES_FILE_NAME), home, project };
}

function onDisk(file: string): { version: number; rules: { rule: string; behavior: string; scope: string; scopeKey?: string }[] } {
  return JSON.parse(fs.readFileSync(file, "utf8"));
}

const created = "2026-01-01T00:00:00.000Z";

describe("rules.json's place", () => {
  it("is beside settings.json, wherever that is", () => {
    expect(rulesFileBeside("/home/user/.config/baton/settings.json")).toBe("/home/user/.config/baton/rules.json");
  });
});

describe("adding, listing, deleting", () => {
  it("stores project and everywhere rules in the file (0600), canonical, with scope and origin", async () => {
    const { file, home, project } = setup();
    const store = new RuleBook({ file, home, now: () => new Date(created) });
    const added = await store.add({ behavior: "allow", rule: "Bash(pnpm test:*)", scope: "project", scopeKey: project, origin: "prompt" });
    expect(added).toEqual({ ok: true, value: { behavior: "allow", rule: "Bash(pnpm test:*)", scope: "project", scopeKey: project, origin: "prompt", createdAt: created } });
    await store.add({ behavior: "deny", rule: "WebFetch(domain:Example.com)", scope: "everywhere", origin: "rules-view" });
    expect(onDisk(file)).toEqual({
      version: 1,
      rules: [
        { behavior: "allow", rule: "Bash(pnpm test:*)", scope: "project", scopeKey: project, origin: "prompt", createdAt: created },
        { behavior: "deny", rule: "WebFetch(domain:example.com)", scope: "everywhere", origin: "rules-view", createdAt: created },
      ],
    });
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(store.list().map((r) => `${r.behavior} ${r.rule} ${r.scope} ${r.origin}`)).toEqual([
      "allow Bash(pnpm test:*) project prompt",
      "deny WebFetch(domain:example.com) everywhere rules-view",
    ]);
  });

  it("the same rule twice is kept once, however it is spelled", async () => {
    const { file, home } = setup();
    const store = new RuleBook({ file, home });
    const first = await store.add({ behavior: "allow", rule: "Bash", scope: "everywhere", origin: "rules-view" });
    const again = await store.add({ behavior: "allow", rule: " Bash(*) ", scope: "everywhere", origin: "prompt" });
    expect(again).toEqual(first);
    expect(onDisk(file).rules).toHaveLength(1);
    await store.add({ behavior: "deny", rule: "Bash", scope: "everywhere", origin: "rules-view" });
    expect(onDisk(file).rules.map((r) => r.behavior)).toEqual(["allow", "deny"]);
  });

  it("refuses a malformed rule, naming it, and writes nothing", async () => {
    const { file, home } = setup();
    const store = new RuleBook({ file, home });
    const result = await store.add({ behavior: "allow", rule: "Bash(npm", scope: "everywhere", origin: "rules-view" });
    expect(result).toEqual({ ok: false, error: expect.stringContaining('rule "Bash(npm": unbalanced parentheses') });
    expect(fs.existsSync(file)).toBe(false);
  });

  it("deletes a rule as list gives it, and says when there was none", async () => {
    const { file, home, project } = setup();
    const store = new RuleBook({ file, home });
    await store.add({ behavior: "allow", rule: "Edit(src/**)", scope: "project", scopeKey: project, origin: "prompt" });
    await store.add({ behavior: "ask", rule: "Bash(git push:*)", scope: "everywhere", origin: "rules-view" });
    const [first] = store.list();
    expect(await store.delete(first!)).toEqual({ ok: true, value: true });
    expect(onDisk(file).rules.map((r) => r.rule)).toEqual(["Bash(git push:*)"]);
    expect(await store.delete(first!)).toEqual({ ok: true, value: false });
    expect(store.list().map((r) => r.rule)).toEqual(["Bash(git push:*)"]);
  });

  it("concurrent adds all land", async () => {
    const { file, home } = setup();
    const store = new RuleBook({ file, home });
    await Promise.all(["a", "b", "c", "d", "e"].map((w) => store.add({ behavior: "allow", rule: `Bash(${w}:*)`, scope: "everywhere", origin: "prompt" })));
    expect(onDisk(file).rules.map((r) => r.rule).sort()).toEqual(["Bash(a:*)", "Bash(b:*)", "Bash(c:*)", "Bash(d:*)", "Bash(e:*)"]);
  });
});

describe("scopes", () => {
  it("session rules stay in memory, for their session only, until it is forgotten", async () => {
    const { file, home, project } = setup();
    const store = new RuleBook({ file, home });
    await store.add({ behavior: "allow", rule: "Bash(make:*)", scope: "session", scopeKey: "s1", origin: "prompt" });
    expect(fs.existsSync(file)).toBe(false);
    expect(store.rulesFor("s1", project).map((r) => r.rule)).toEqual(["Bash(make:*)"]);
    expect(store.rulesFor("s2", project)).toEqual([]);
    expect(store.list().map((r) => `${r.scope}:${r.scopeKey} ${r.rule}`)).toEqual(["session:s1 Bash(make:*)"]);
    expect(await store.delete({ behavior: "allow", rule: "Bash(make:*)", scope: "session", scopeKey: "s1" })).toEqual({ ok: true, value: true });
    await store.add({ behavior: "allow", rule: "Bash(make:*)", scope: "session", scopeKey: "s1", origin: "prompt" });
    store.forgetSession("s1");
    expect(store.rulesFor("s1", project)).toEqual([]);
  });

  it("a session or project rule needs its key", async () => {
    const { file, home } = setup();
    const store = new RuleBook({ file, home });
    expect((await store.add({ behavior: "allow", rule: "Bash", scope: "session", origin: "prompt" })).ok).toBe(false);
    expect((await store.add({ behavior: "allow", rule: "Bash", scope: "project", origin: "prompt" })).ok).toBe(false);
  });

  it("project rules are keyed by the folder's real path: a link to it finds them, another project does not", async () => {
    const { root, file, home, project } = setup();
    const link = path.join(root, "app-link");
    fs.symlinkSync(project, link);
    const other = path.join(root, "code", "other");
    fs.mkdirSync(other);
    const store = new RuleBook({ file, home });
    const added = await store.add({ behavior: "allow", rule: "Edit(src/**)", scope: "project", scopeKey: link, origin: "prompt" });
    expect(added.ok && added.value.scopeKey).toBe(project);
    await store.add({ behavior: "deny", rule: "Read(~/.ssh/**)", scope: "everywhere", origin: "rules-view" });
    await store.add({ behavior: "allow", rule: "Bash(ls)", scope: "session", scopeKey: "s1", origin: "prompt" });
    expect(store.rulesFor("s1", project).map((r) => r.rule)).toEqual(["Bash(ls)", "Edit(src/**)", "Read(~/.ssh/**)"]);
    expect(store.rulesFor("s1", path.join(project, "..", "app")).map((r) => r.rule)).toEqual(["Bash(ls)", "Edit(src/**)", "Read(~/.ssh/**)"]);
    expect(store.rulesFor("s2", other).map((r) => r.rule)).toEqual(["Read(~/.ssh/**)"]);
  });
});

describe("the file on disk", () => {
  it("a new store reads what another wrote; a hand edit made since the last load is kept by the next write", async () => {
    const { file, home } = setup();
    const first = new RuleBook({ file, home });
    await first.add({ behavior: "allow", rule: "Bash(ls)", scope: "everywhere", origin: "prompt" });
    expect(new RuleBook({ file, home }).list().map((r) => r.rule)).toEqual(["Bash(ls)"]);
    const edited = onDisk(file);
    edited.rules.push({ behavior: "deny", rule: "Bash(rm:*)", scope: "everywhere", origin: "file", createdAt: created } as never);
    fs.writeFileSync(file, JSON.stringify(edited));
    await first.add({ behavior: "allow", rule: "Bash(pwd)", scope: "everywhere", origin: "prompt" });
    expect(onDisk(file).rules.map((r) => r.rule)).toEqual(["Bash(ls)", "Bash(rm:*)", "Bash(pwd)"]);
  });

  it("a file that is not JSON: no rules from it, the problem names the file, and it is not overwritten", async () => {
    const { file, home, project } = setup();
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, '{"version": 1, "rules": [');
    const store = new RuleBook({ file, home });
    expect(store.problem).toContain(file);
    expect(store.problem).toContain("not JSON");
    expect(store.rulesFor("s1", project)).toEqual([]);
    const refused = await store.add({ behavior: "allow", rule: "Bash(ls)", scope: "project", scopeKey: project, origin: "prompt" });
    expect(refused.ok).toBe(false);
    expect(!refused.ok && refused.error).toContain("not changed");
    expect(fs.readFileSync(file, "utf8")).toBe('{"version": 1, "rules": [');
    const session = await store.add({ behavior: "allow", rule: "Bash(ls)", scope: "session", scopeKey: "s1", origin: "prompt" });
    expect(session.ok).toBe(true);
    expect(store.rulesFor("s1", project).map((r) => r.rule)).toEqual(["Bash(ls)"]);
  });

  it("a bad field: the problem names the file, the rule's index and the field; none of the file's rules are in force", () => {
    const { file, home, project } = setup();
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const rules = [
      { behavior: "deny", rule: "Bash(rm:*)", scope: "everywhere", origin: "file", createdAt: created },
      { behavior: "allwo", rule: "Bash(ls)", scope: "everywhere", origin: "file", createdAt: created },
      { behavior: "allow", rule: "Bash(npm", scope: "everywhere", origin: "file", createdAt: created },
      { behavior: "allow", rule: "Edit(src/**)", scope: "project", origin: "file", createdAt: created },
      { behavior: "allow", rule: "Bash(ls)", scope: "session", scopeKey: "s1", origin: "file", createdAt: created },
    ];
    fs.writeFileSync(file, JSON.stringify({ version: 1, rules }));
    const store = new RuleBook({ file, home });
    expect(store.problem).toContain(`${file}: rules[1].behavior:`);
    expect(store.problem).toContain('rules[2].rule: rule "Bash(npm": unbalanced parentheses');
    expect(store.problem).toContain("rules[3].scopeKey: a project rule needs the project folder's absolute path");
    expect(store.problem).toContain("rules[4].scope:");
    expect(store.rulesFor("s1", project)).toEqual([]);
    expect(store.list()).toEqual([]);
  });

  it("a newer version is reported as such and left alone", async () => {
    const { file, home } = setup();
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify({ version: 2, rules: [] }));
    const store = new RuleBook({ file, home });
    expect(store.problem).toContain("is version 2, and this Baton reads version 1");
    expect((await store.add({ behavior: "allow", rule: "Bash", scope: "everywhere", origin: "prompt" })).ok).toBe(false);
    expect(onDisk(file)).toEqual({ version: 2, rules: [] });
  });

  it("once the person fixes the file, reload puts its rules in force", () => {
    const { file, home, project } = setup();
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, "not json");
    const store = new RuleBook({ file, home });
    expect(store.problem).toBeDefined();
    fs.writeFileSync(file, JSON.stringify({ version: 1, rules: [{ behavior: "deny", rule: "Bash(rm:*)", scope: "everywhere", origin: "file", createdAt: created }] }));
    expect(store.reload()).toBeUndefined();
    expect(store.problem).toBeUndefined();
    expect(store.rulesFor("s1", project).map((r) => r.rule)).toEqual(["Bash(rm:*)"]);
  });

  it("reads a FIFO named rules.json as broken, at once, instead of waiting on it", () => {
    const { file, home } = setup();
    fs.mkdirSync(path.dirname(file), { recursive: true });
    execFileSync("mkfifo", [file]);
    const store = new RuleBook({ file, home });
    expect(store.problem).toMatch(/not a regular file/);
    expect(store.list()).toEqual([]);
  });

  it("setting a broken file aside keeps its text under another name and lets rules be added again", async () => {
    const { file, home } = setup();
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, "{oops");
    const store = new RuleBook({ file, home, now: () => new Date(created) });
    const aside = await store.setAside();
    expect(aside.ok).toBe(true);
    if (!aside.ok) return;
    expect(path.dirname(aside.value)).toBe(path.dirname(file));
    expect(fs.readFileSync(aside.value, "utf8")).toBe("{oops");
    expect(store.problem).toBeUndefined();
    expect((await store.add({ behavior: "allow", rule: "Bash(ls)", scope: "everywhere", origin: "prompt" })).ok).toBe(true);
    expect(onDisk(file).rules.map((r) => r.rule)).toEqual(["Bash(ls)"]);
    expect(await store.setAside()).toEqual({ ok: false, error: expect.stringContaining("is not broken") });
  });

  it("refuses to keep rules inside ~/.claude, as written or through a link", async () => {
    const { root, home } = setup();
    fs.mkdirSync(path.join(home, ".claude"));
    const direct = new RuleBook({ file: path.join(home, ".claude", RULES_FILE_NAME), home });
    expect(direct.problem).toContain("refusing to keep Baton's rules inside");
    expect((await direct.add({ behavior: "allow", rule: "Bash", scope: "everywhere", origin: "prompt" })).ok).toBe(false);
    expect(fs.existsSync(path.join(home, ".claude", RULES_FILE_NAME))).toBe(false);
    const link = path.join(root, "sneaky");
    fs.symlinkSync(path.join(home, ".claude"), link);
    expect(new RuleBook({ file: path.join(link, RULES_FILE_NAME), home }).problem).toContain("refusing");
  });
});
