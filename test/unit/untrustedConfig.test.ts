// Issue 31, "Config files Baton trusts": a rules.json, presets.json or settings.json that someone
// else could have written (0666, group-writable, a link to another user's file, 27 MB) is refused
// with a message naming the file and the problem, and nothing in it applies: the engine decides
// as if it were not there (checked through decidePolicy), the built-in presets and the default
// settings are in force. The same file made the person's own is used, so each refusal is the
// file's trust and not its content. Baton's own writes make files 0600 in a 0700 folder.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readConductorAnswerSeconds, readOrchestration, readSessionLimit, readSettings, updateSettings } from "../../src/main/platform/settingsFile.js";
import { ConfigRefusedError } from "../../src/main/platform/trustedConfigFile.js";
import { builtinPresetSet } from "../../src/main/policy/presets/builtinPresets.js";
import { decidePolicy, policyContext } from "../../src/main/policy/decidePolicy.js";
import { PolicyService } from "../../src/main/policy/policyService.js";
import { presetsFileText, resetPresets } from "../../src/main/policy/presets/presetsFile.js";
import type { PolicyVerdict } from "../../src/shared/policy.js";
import { tempDirs } from "../support/tempDirs.js";

const asRoot = process.getuid?.() === 0;
const Nobody = 65534;

const tempDir = tempDirs("baton-untrusted-");

interface Place {
  readonly root: string;
  readonly config: string;
  readonly settingsFile: string;
  readonly cwd: string;
}

function place(): Place {
  const root = tempDir();
  const config = path.join(root, "config", "baton");
  const cwd = path.join(root, "code", "app");
  fs.mkdirSync(config, { recursive: true, mode: 0o700 });
  fs.mkdirSync(cwd, { recursive: true });
  return { root, config, settingsFile: path.join(config, "settings.json"), cwd };
}

function write(file: string, text: string, mode: number): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  fs.chmodSync(file, mode);
  return file;
}

const created = "2026-12-01T00:00:00.000Z";
/** The person's rules: a deny that must hold, an allow that must not be given by a stranger. */
const rulesText = JSON.stringify({
  version: 1,
  rules: [
    { behavior: "deny", rule: "Bash(git push:*)", scope: "everywhere", origin: "file", createdAt: created },
    { behavior: "allow", rule: "Bash(curl:*)", scope: "everywhere", origin: "file", createdAt: created },
  ],
});

async function open(p: Place, logged: { level: string; message: string }[] = []): Promise<PolicyService> {
  return PolicyService.open({ settingsFile: p.settingsFile, home: p.root, log: (level, message) => logged.push({ level, message }) });
}

function decide(service: PolicyService, p: Place, agent: "main" | string, toolName: string, input: Record<string, string>): PolicyVerdict {
  return decidePolicy(
    { agent: agent === "main" ? { kind: "main" } : { kind: "subagent", agentType: agent }, toolName, input },
    policyContext({ orchestration: service.orchestration, presets: service.presets, rules: service.rules?.rulesFor("s-1", p.cwd) ?? [], cwd: p.cwd, home: p.root }),
  );
}

/** The two calls the rules decide when they are in force. */
function ruleDecisions(service: PolicyService, p: Place): string[] {
  return [decide(service, p, "main", "Bash", { command: "git push origin main" }), decide(service, p, "main", "Bash", { command: "curl https://example.com" })].map((v) => `${v.decision} ${v.rule}`);
}
const RulesHold = ["deny rule:deny Bash(git push:*) (everywhere)", "allow rule:allow Bash(curl:*) (everywhere)"];
const NoRules = ["ask default:ask", "ask default:ask"];

describe("rules.json", () => {
  it("0666: refused with its message, in the log at start; the deny does not hold, the allow does not allow; chmod 600 and both do", async () => {
    const p = place();
    const file = write(path.join(p.config, "rules.json"), rulesText, 0o666);
    const logged: { level: string; message: string }[] = [];
    const service = await open(p, logged);
    const message = `${file} is writable by others (mode 0666): Baton does not read it (none of its rules are in force); run chmod 600 ${file}`;
    expect(service.summary().rulesProblem).toBe(message);
    expect(logged).toContainEqual({ level: "error", message });
    expect(service.rules?.list()).toEqual([]);
    expect(ruleDecisions(service, p)).toEqual(NoRules);
    // Adding a rule does not write over the refused file.
    expect(await service.rules?.add({ behavior: "allow", rule: "Bash(ls)", scope: "everywhere", origin: "rules-view" })).toMatchObject({ ok: false, error: expect.stringContaining("writable by others") });
    expect(fs.readFileSync(file, "utf8")).toBe(rulesText);

    fs.chmodSync(file, 0o600);
    expect(service.rules?.reload()).toBeUndefined();
    expect(ruleDecisions(service, p)).toEqual(RulesHold);
  });

  it("group-writable (0620): refused the same way", async () => {
    const p = place();
    const file = write(path.join(p.config, "rules.json"), rulesText, 0o620);
    const service = await open(p);
    expect(service.summary().rulesProblem).toContain(`${file} is writable by its group (mode 0620)`);
    expect(ruleDecisions(service, p)).toEqual(NoRules);
  });

  it("27 MB (valid JSON, its rules first): refused by its size, none of its rules in force", async () => {
    const p = place();
    const file = path.join(p.config, "rules.json");
    const fd = fs.openSync(file, "w", 0o600);
    fs.writeSync(fd, rulesText.slice(0, -1));
    fs.writeSync(fd, Buffer.alloc(27 * 1024 * 1024 - rulesText.length, " "));
    fs.writeSync(fd, "}");
    fs.closeSync(fd);
    expect(JSON.parse(fs.readFileSync(file, "utf8"))).toMatchObject({ version: 1 });
    const service = await open(p);
    expect(service.summary().rulesProblem).toBe(`${file} is 27 MB, more than the 1 MB a config file may be: Baton does not read it (none of its rules are in force)`);
    expect(ruleDecisions(service, p)).toEqual(NoRules);
  });

  it("a link to a good file of the person's elsewhere: used", async () => {
    const p = place();
    const target = write(path.join(p.root, "dotfiles", "rules.json"), rulesText, 0o600);
    fs.symlinkSync(target, path.join(p.config, "rules.json"));
    const service = await open(p);
    expect(service.summary().rulesProblem).toBeUndefined();
    expect(ruleDecisions(service, p)).toEqual(RulesHold);
  });

  it.skipIf(!asRoot)("a link to another user's file (as root: given to nobody): refused, naming the link and its target", async () => {
    const p = place();
    const theirs = write(path.join(p.root, "theirs", "rules.json"), rulesText, 0o644);
    fs.chownSync(theirs, Nobody, Nobody);
    const link = path.join(p.config, "rules.json");
    fs.symlinkSync(theirs, link);
    const service = await open(p);
    expect(service.summary().rulesProblem).toContain(`${link} (a link to ${theirs}) is owned by uid ${Nobody}, not by you (uid 0): Baton does not read it (none of its rules are in force)`);
    expect(ruleDecisions(service, p)).toEqual(NoRules);
  });
});

describe("presets.json", () => {
  /** The built-ins, but the scout may write: what a stranger would put there. */
  const loosened = (): string => {
    const set = builtinPresetSet();
    return presetsFileText({ ...set, presets: set.presets.map((preset) => (preset.name === "scout" ? { ...preset, tools: [...preset.tools, "Write"], write: "write-root" as const } : preset)) });
  };
  const scoutWrites = (service: PolicyService, p: Place): string => decide(service, p, "scout", "Write", { file_path: path.join(p.cwd, "notes.md"), content: "x" }).decision;

  it("0666: refused, the built-in presets in force (the scout still writes nothing); chmod 600 and the file is the policy", async () => {
    const p = place();
    const file = write(path.join(p.config, "presets.json"), loosened(), 0o666);
    const logged: { level: string; message: string }[] = [];
    const refused = await PolicyService.open({ settingsFile: p.settingsFile, home: p.root, orchestration: true, log: (level, message) => logged.push({ level, message }) });
    const message = `${file} is writable by others (mode 0666): Baton does not read it (the built-in presets are in force); run chmod 600 ${file}`;
    expect(refused.presets).toMatchObject({ source: "built-in", problem: message });
    expect(logged).toContainEqual({ level: "error", message });
    expect(scoutWrites(refused, p)).toBe("deny");

    fs.chmodSync(file, 0o600);
    const trusted = await PolicyService.open({ settingsFile: p.settingsFile, home: p.root, orchestration: true });
    expect(trusted.presets).toMatchObject({ source: file });
    expect(trusted.presets.problem).toBeUndefined();
    expect(scoutWrites(trusted, p)).toBe("allow");
  });

  it("group-writable (0664): refused, the built-ins in force", async () => {
    const p = place();
    const file = write(path.join(p.config, "presets.json"), loosened(), 0o664);
    const service = await PolicyService.open({ settingsFile: p.settingsFile, home: p.root, orchestration: true });
    expect(service.presets.problem).toContain(`${file} is writable by its group (mode 0664)`);
    expect(scoutWrites(service, p)).toBe("deny");
  });

  it.skipIf(!asRoot)("a link to another user's file: refused, the built-ins in force", async () => {
    const p = place();
    const theirs = write(path.join(p.root, "theirs", "presets.json"), loosened(), 0o600);
    fs.chownSync(theirs, Nobody, Nobody);
    fs.symlinkSync(theirs, path.join(p.config, "presets.json"));
    const service = await PolicyService.open({ settingsFile: p.settingsFile, home: p.root, orchestration: true });
    expect(service.presets.problem).toContain(`is owned by uid ${Nobody}, not by you`);
    expect(scoutWrites(service, p)).toBe("deny");
  });
});

describe("settings.json", () => {
  const saved = { orchestration: true, projectsDir: "/home/user/elsewhere", maxRunningSessions: 2, conductorAnswerSeconds: 30 };

  it("0666: every field at its default, the refusal said once (by the policy) and in its summary; Baton does not write over it", async () => {
    const p = place();
    const text = JSON.stringify(saved);
    write(p.settingsFile, text, 0o666);
    const message = `${p.settingsFile} is writable by others (mode 0666): Baton does not read it (Baton's settings are at their defaults); run chmod 600 ${p.settingsFile}`;
    expect(readOrchestration(p.settingsFile)).toEqual({ orchestration: false, refused: message });
    // The history folder's reading leaves the saying to the policy: one line in the Console, not two.
    expect(readSettings(p.settingsFile)).toEqual({ settings: {}, refused: message });
    expect(readSessionLimit(p.settingsFile)).toEqual({});
    expect(readConductorAnswerSeconds(p.settingsFile)).toEqual({});
    const logged: { level: string; message: string }[] = [];
    const service = await open(p, logged);
    expect(service.orchestration).toBe(false);
    expect(service.summary().settingsProblem).toBe(message);
    expect(logged.filter((l) => l.message.includes("settings.json"))).toEqual([{ level: "error", message }]);

    // The switch still works for this run; the file stays as the person left it.
    await service.setOrchestration(true);
    expect(service.orchestration).toBe(true);
    expect(logged.at(-1)).toEqual({ level: "warning", message: `orchestration mode is on for this run only, not saved: ${message}` });
    await expect(updateSettings(p.settingsFile, { projectsDir: "/home/user/code" })).rejects.toThrow(ConfigRefusedError);
    expect(fs.readFileSync(p.settingsFile, "utf8")).toBe(text);
    expect(fs.statSync(p.settingsFile).mode & 0o777).toBe(0o666);

    fs.chmodSync(p.settingsFile, 0o600);
    expect(readSettings(p.settingsFile)).toEqual({ settings: { projectsDir: "/home/user/elsewhere" } });
    expect(readSessionLimit(p.settingsFile)).toEqual({ maxRunningSessions: 2 });
    expect((await open(p)).orchestration).toBe(true);
  });

  it.skipIf(!asRoot)("a link to another user's file: refused, defaults in force", async () => {
    const p = place();
    const theirs = write(path.join(p.root, "theirs", "settings.json"), JSON.stringify(saved), 0o644);
    fs.chownSync(theirs, Nobody, Nobody);
    fs.symlinkSync(theirs, p.settingsFile);
    const read = readOrchestration(p.settingsFile);
    expect(read).toMatchObject({ orchestration: false, refused: expect.stringContaining(`(a link to ${theirs}) is owned by uid ${Nobody}`) });
    expect((await open(p)).summary().settingsProblem).toBe(read.refused);
  });

  it("in a config folder others can write: all three files refused, each naming the folder", async () => {
    const p = place();
    write(p.settingsFile, JSON.stringify(saved), 0o600);
    write(path.join(p.config, "rules.json"), rulesText, 0o600);
    write(path.join(p.config, "presets.json"), presetsFileText(builtinPresetSet()), 0o600);
    fs.chmodSync(p.config, 0o777);
    const service = await open(p);
    const summary = service.summary();
    for (const problem of [summary.settingsProblem, summary.rulesProblem, summary.presets.problem]) {
      expect(problem).toContain(`is in ${p.config}, which is writable by others (mode 0777)`);
      expect(problem).toContain(`run chmod go-w ${p.config}`);
    }
    expect(ruleDecisions(service, p)).toEqual(NoRules);
  });
});

describe("Baton's own writes", () => {
  it("settings, presets and rules: files 0600 in a folder Baton makes 0700, and a 0644 settings file rewritten 0600", async () => {
    const p = place();
    const fresh = path.join(p.root, "new-config", "baton", "settings.json");
    await updateSettings(fresh, { orchestration: true });
    expect(fs.statSync(fresh).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(fresh)).mode & 0o777).toBe(0o700);
    expect(fs.readdirSync(path.dirname(fresh))).toEqual(["settings.json"]);
    const presets = await resetPresets(path.join(p.root, "presets-config", "presets.json"));
    expect(fs.statSync(path.dirname(presets.source)).mode & 0o777).toBe(0o700);
    expect(fs.statSync(presets.source).mode & 0o777).toBe(0o600);

    write(p.settingsFile, "{}", 0o644);
    await updateSettings(p.settingsFile, { orchestration: false });
    expect(fs.statSync(p.settingsFile).mode & 0o777).toBe(0o600);
    const service = await open(p);
    expect(await service.rules?.add({ behavior: "deny", rule: "Bash(git push:*)", scope: "everywhere", origin: "rules-view" })).toMatchObject({ ok: true });
    expect(fs.statSync(path.join(p.config, "rules.json")).mode & 0o777).toBe(0o600);
    expect((await open(p)).summary()).not.toHaveProperty("rulesProblem");
  });
});
