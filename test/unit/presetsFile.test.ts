// presets.json is the person's to edit: a valid file is the policy; a file with any mistake leaves
// the built-ins in force and says which file, which preset and which field is wrong; a missing
// file is the built-ins without a word; a reset writes the built-ins back, and they read back
// the same.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { builtinPresetSet } from "../../src/main/policy/presets/builtinPresets.js";
import { parsePresetsFile, presetsFileBeside, presetsFileText, readPresetsFile, resetPresets } from "../../src/main/policy/presets/presetsFile.js";
import { tempDirs } from "../support/tempDirs.js";

const tempDir = tempDirs("baton-presets-");

function configDir(): string {
  const dir = tempDir();
  return dir;
}

function fileWith(content: unknown): string {
  const file = path.join(configDir(), "presets.json");
  fs.writeFileSync(file, typeof content === "string" ? content : JSON.stringify(content));
  return file;
}

interface FilePreset {
  name: string;
  character: string;
  description: string;
  prompt: string | string[];
  tools: string[];
  exec?: string[];
  write?: string;
  spawns?: string[];
}

interface FileContent {
  version: number;
  presets: FilePreset[];
  refused: { pattern: string; reason: string }[];
}

function validFile(): FileContent {
  return {
    version: 1,
    presets: [
      {
        name: "coder",
        character: "deliberate",
        description: "Writes code.",
        prompt: ["You write code.", "", "Then you test it."],
        tools: ["Read", "Bash", "Edit"],
        exec: ["pnpm test", "go test|vet", "cargo"],
        write: "write-root",
      },
      { name: "lead", character: "deliberate", description: "Leads.", prompt: "You lead.", tools: ["Agent"], spawns: ["coder"], write: "write-root" },
      { name: "looker", character: "exploratory", description: "Looks.", prompt: "You look.", tools: ["Read"] },
    ],
    refused: [{ pattern: "npm", reason: "no npm here" }],
  };
}

const builtIns = builtinPresetSet();

describe("a valid presets file", () => {
  it("is the policy: its presets and refused commands, prompts given as lines joined, left-out fields on the safe side", () => {
    const file = fileWith(validFile());
    const set = readPresetsFile(file);
    expect(set.problem).toBeUndefined();
    expect(set.source).toBe(file);
    expect(set.presets.map((p) => p.name)).toEqual(["coder", "lead", "looker"]);
    expect(set.presets[0]).toMatchObject({ prompt: "You write code.\n\nThen you test it.", exec: ["pnpm test", "go test|vet", "cargo"], spawns: [] });
    expect(set.presets[1]).toMatchObject({ prompt: "You lead.", spawns: ["coder"], exec: [] });
    expect(set.presets[2]).toMatchObject({ write: "none", exec: [], spawns: [] });
    expect(set.refused).toEqual([{ pattern: "npm", reason: "no npm here" }]);
  });

  it("is found beside the settings file", () => {
    expect(presetsFileBeside("/home/user/.config/baton/settings.json")).toBe("/home/user/.config/baton/presets.json");
  });
});

describe("an invalid presets file", () => {
  const cases: readonly { readonly what: string; readonly change: (f: FileContent) => unknown; readonly says: string }[] = [
    { what: "a command that is not a string", change: (f) => ((f.presets[0]!.exec as unknown[])[2] = 42, f), says: 'preset "coder": exec[2]: expected a string' },
    { what: "a missing description", change: (f) => (delete (f.presets[0] as { description?: string }).description, f), says: 'preset "coder": description: missing' },
    { what: "an unknown character", change: (f) => ((f.presets[0]!.character = "bold"), f), says: 'preset "coder": character: expected "exploratory" or "deliberate"' },
    { what: "an unknown write policy", change: (f) => ((f.presets[0]!.write = "anywhere"), f), says: 'preset "coder": write: expected "none" or "write-root"' },
    { what: "a misspelt field", change: (f) => (Object.assign(f.presets[1]!, { spawn: ["coder"] }), f), says: 'preset "lead": unknown field "spawn"' },
    { what: "a spawn of a preset that is not there", change: (f) => ((f.presets[1]!.spawns = ["coder", "ghost"]), f), says: 'preset "lead": spawns[1]: no preset is named "ghost"' },
    { what: "two presets of one name", change: (f) => ((f.presets[2]!.name = "coder"), f), says: 'presets[2]: name: "coder" is already the name of presets[0]' },
    { what: "a preset without a name, named by its index", change: (f) => (delete (f.presets[2] as { name?: string }).name, f), says: "presets[2]: name: missing" },
    { what: "a name the CLI cannot take", change: (f) => ((f.presets[2]!.name = "Looker Two"), f), says: 'preset "Looker Two": name: must be lowercase' },
    { what: "a tool list that is not a list", change: (f) => (Object.assign(f.presets[2]!, { tools: "Read" }), f), says: 'preset "looker": tools: expected an array of tool names' },
    { what: "an empty prompt", change: (f) => ((f.presets[1]!.prompt = ""), f), says: 'preset "lead": prompt: cannot be empty' },
    { what: "a pattern with an empty word", change: (f) => ((f.presets[0]!.exec![0] = "pnpm  test"), f), says: 'preset "coder": exec[0]: "pnpm  test" has an empty word' },
    { what: "a pattern with an empty alternative", change: (f) => ((f.presets[0]!.exec![1] = "go test|"), f), says: 'preset "coder": exec[1]: "go test|" has an empty alternative' },
    { what: "a pattern written as a regex", change: (f) => ((f.presets[0]!.exec![1] = "go\\s+(test|vet)"), f), says: 'preset "coder": exec[1]: "go\\s+(test|vet)" looks like a regular expression' },
    { what: "an empty pattern", change: (f) => ((f.presets[0]!.exec![1] = ""), f), says: 'preset "coder": exec[1]: a command pattern cannot be empty' },
    { what: "a bad refused pattern", change: (f) => ((f.refused[0]!.pattern = "npm|"), f), says: 'refused[0].pattern: "npm|" has an empty alternative' },
    { what: "a refused command without a reason", change: (f) => (delete (f.refused[0] as { reason?: string }).reason, f), says: "refused[0].reason: missing" },
    { what: "another version", change: (f) => ((f.version = 2), f), says: "version: expected 1" },
    { what: "no refused list", change: (f) => (delete (f as { refused?: unknown }).refused, f), says: "refused: missing" },
    { what: "presets that are not a list", change: (f) => ({ ...f, presets: {} }), says: "presets: expected an array of presets" },
    { what: "a preset that is not an object", change: (f) => ({ ...f, presets: [...f.presets, "scout"] }), says: "presets[3]: expected a preset object" },
    { what: "a list instead of the file's object", change: (f) => f.presets, says: 'expected an object: { "version": 1' },
  ];

  for (const { what, change, says } of cases) {
    it(`with ${what} names the file, the preset and the field, and leaves the built-ins in force`, () => {
      const file = fileWith(change(validFile()));
      const set = readPresetsFile(file);
      expect(set.problem).toContain(`${file}: `);
      expect(set.problem).toContain(says);
      expect(set.problem).toMatch(/the built-in presets are in force$/);
      expect(set.presets).toEqual(builtIns.presets);
      expect(set.refused).toEqual(builtIns.refused);
      expect(set.source).toBe("built-in");
    });
  }

  it("lists every mistake, not only the first", () => {
    const f = validFile();
    (f.presets[0]!.exec as unknown[])[2] = 42;
    f.presets[2]!.character = "bold";
    const set = readPresetsFile(fileWith(f));
    expect(set.problem).toContain('preset "coder": exec[2]: expected a string');
    expect(set.problem).toContain('preset "looker": character: expected');
  });
});

describe("a missing or broken presets file", () => {
  it("missing: the built-ins, with no problem", () => {
    const set = readPresetsFile(path.join(configDir(), "presets.json"));
    expect(set).toEqual(builtIns);
    expect(set.problem).toBeUndefined();
  });

  it("not JSON: the built-ins, and the problem says so", () => {
    const file = fileWith('{ "version": 1, "presets": [');
    const set = readPresetsFile(file);
    expect(set.presets).toEqual(builtIns.presets);
    expect(set.problem).toMatch(new RegExp(`^${escaped(file)}: not valid JSON .*; the built-in presets are in force$`));
  });

  it("a directory or a FIFO in its place: refused without reading (a FIFO would hang), the built-ins in force", () => {
    const dir = configDir();
    const asDir = path.join(dir, "presets.json");
    fs.mkdirSync(asDir);
    expect(readPresetsFile(asDir).problem).toContain(`${asDir} is not a regular file (a directory)`);
    const asFifo = path.join(configDir(), "presets.json");
    execFileSync("mkfifo", [asFifo]);
    const set = readPresetsFile(asFifo);
    expect(set.problem).toContain(`${asFifo} is not a regular file (a FIFO)`);
    expect(set.presets).toEqual(builtIns.presets);
  });

  it("unreadable (its folder is a file): the built-ins, and the problem names the file", () => {
    const notAFolder = fileWith("{}");
    const file = path.join(notAFolder, "presets.json");
    const set = readPresetsFile(file);
    expect(set.problem).toContain(`${file}: could not be read`);
    expect(set.presets).toEqual(builtIns.presets);
  });
});

describe("resetting the presets", () => {
  it("writes the built-ins (mode 0600, no temp file left), and reading the file back gives the built-ins", async () => {
    const file = path.join(configDir(), "not-yet", "presets.json");
    const set = await resetPresets(file);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(path.dirname(file))).toEqual(["presets.json"]);
    expect(set).toEqual({ ...builtIns, source: file });
    expect(readPresetsFile(file)).toEqual({ ...builtIns, source: file });
  });

  it("replaces a broken file, and the file is one a person can edit: an object with version, presets and refused, prompts as lines", async () => {
    const file = fileWith("not json");
    expect(readPresetsFile(file).problem).toBeDefined();
    await resetPresets(file);
    const written = JSON.parse(fs.readFileSync(file, "utf8")) as { version: unknown; presets: { name: string; prompt: unknown }[]; refused: unknown[] };
    expect(written.version).toBe(1);
    expect(written.presets.map((p) => p.name)).toEqual(["scout", "analyst", "coder", "worker", "coordinator"]);
    expect(Array.isArray(written.presets[0]!.prompt)).toBe(true);
    expect(written.refused).toHaveLength(2);
    expect(readPresetsFile(file).problem).toBeUndefined();
  });
});

describe("the built-in presets", () => {
  it("pass their own file's schema", () => {
    const parsed = parsePresetsFile(JSON.parse(presetsFileText(builtIns)));
    expect(parsed).toEqual({ ok: true, value: { presets: builtIns.presets, refused: builtIns.refused } });
  });

  it("are the seed's five: who may run, write and spawn what", () => {
    const byName = new Map(builtIns.presets.map((p) => [p.name, p]));
    expect([...byName.keys()]).toEqual(["scout", "analyst", "coder", "worker", "coordinator"]);
    const scout = byName.get("scout")!;
    expect(scout).toMatchObject({ character: "exploratory", write: "none", spawns: [] });
    // The CLI has no Grep or Glob tool: a scout searches with commands that only read.
    expect(scout.exec).toEqual(expect.arrayContaining(["ls", "cat", "grep|egrep|fgrep"]));
    expect(scout.exec.some((p) => /^(go|pnpm|bun|cargo|uv|pip|curl|wget|find|rg)\b/.test(p))).toBe(false);
    expect(byName.get("analyst")).toMatchObject({ character: "exploratory", write: "none", spawns: [] });
    expect(byName.get("analyst")!.tools).toContain("Bash");
    expect(byName.get("analyst")!.exec).toEqual(expect.arrayContaining(["go test|vet", "git log|diff|status|show|blame|grep|ls-files"]));
    for (const name of ["coder", "worker", "coordinator"]) expect(byName.get(name)).toMatchObject({ character: "deliberate", write: "write-root" });
    expect(byName.get("coder")!.exec).toEqual(expect.arrayContaining(["pnpm run test|lint|format", "cargo test|fmt|clippy"]));
    expect(byName.get("worker")!.exec).toEqual(expect.arrayContaining(["pnpm install|add|run|test|build", "pip install", "cargo"]));
    expect(byName.get("coordinator")!.spawns).toEqual(["scout", "analyst", "coder", "worker"]);
    expect(byName.get("coordinator")!.tools).toContain("Agent");
    for (const p of builtIns.presets) {
      expect(p.tools).toEqual(expect.arrayContaining(["WebSearch", "WebFetch"]));
      if (p.name !== "coordinator") expect(p.spawns).toEqual([]);
      if (p.write === "none") expect(p.tools.filter((t) => ["Edit", "Write", "MultiEdit", "NotebookEdit"].includes(t))).toEqual([]);
      expect(p.prompt).toContain(`You are ${p.name === "analyst" ? "an" : "a"} ${p.name} subagent`);
    }
    // npm's installs; the npm twins of pnpm's patterns and npx of the project's own programs run (npmCommands.ts).
    expect(builtIns.refused.map((r) => r.pattern.split(" ").slice(0, 2).join(" "))).toEqual([expect.stringMatching(/^npm install\|ci\|/), "npm audit"]);
    expect(builtIns.refused[0]!.pattern.split(" ")[1]!.split("|")).toEqual(expect.arrayContaining(["ci", "add", "update", "upgrade", "install-test", "it", "install-ci-test", "link", "rebuild"]));
    for (const r of builtIns.refused) expect(r.reason).toMatch(/node_modules/);
    expect(builtIns.refused[0]!.reason).toContain("pnpm or bun");
  });

  it("give the deliberate presets the clarifying, review and executing phases, and the exploratory ones none", () => {
    for (const p of builtIns.presets) {
      const phases = ["PHASE 1: CLARIFYING", "PHASE 2: REVIEW", "PHASE 3: EXECUTING"].filter((phase) => p.prompt.includes(phase));
      expect(phases, p.name).toHaveLength(p.character === "deliberate" ? 3 : 0);
    }
  });
});

function escaped(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
