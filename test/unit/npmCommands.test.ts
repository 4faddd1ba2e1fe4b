// npm in a project (issue 31, npmCommands.ts): each preset runs the npm twins of its pnpm patterns
// (`npm test`, `npm run <script>`, `npx` of a program the project has), installs and packages the
// project does not have stay refused for every preset with the seed's reason, and options or a
// `cd` that would take npm out of the project are refused. Real project folders: node_modules/.bin
// with an executable program, a file that is not executable, a link out of the project.

import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { PolicyAgent, Preset, PresetSet } from "../../src/shared/policy.js";
import { bufferIO } from "../../src/main/commands/commandIO.js";
import { run } from "../../src/main/commands/policy.js";
import { builtinPresetSet } from "../../src/main/policy/presets/builtinPresets.js";
import { decidePolicy, policyContext } from "../../src/main/policy/decidePolicy.js";
import { NpmInstallReason, npmProject, npmTwins, npmTwinsShown, NpxReason } from "../../src/main/policy/presets/npmCommands.js";
import { loadShellParser } from "../../src/main/policy/shell/shellParser.js";
import { nodeWritePathFs } from "../../src/main/policy/writePathFs.js";
import { tempDirs } from "../support/tempDirs.js";

const tempDir = tempDirs("baton-npm-", "all");
let root: string;
/** A project with jest in node_modules/.bin (a link to its executable script), as npm leaves it. */
let project: string;
/** A project with no node_modules at all. */
let bare: string;

beforeAll(async () => {
  await loadShellParser();
  root = tempDir();
  project = path.join(root, "code", "app");
  bare = path.join(root, "code", "bare");
  const bin = path.join(project, "node_modules", ".bin");
  fs.mkdirSync(path.join(project, "node_modules", "jest", "bin"), { recursive: true });
  fs.mkdirSync(bin, { recursive: true });
  fs.mkdirSync(path.join(project, "src"), { recursive: true });
  fs.mkdirSync(bare, { recursive: true });
  fs.writeFileSync(path.join(project, "package.json"), JSON.stringify({ scripts: { test: "jest", lint: "eslint .", build: "tsc" } }));
  fs.writeFileSync(path.join(project, "node_modules", "jest", "bin", "jest.js"), "#!/usr/bin/env node\n", { mode: 0o755 });
  fs.symlinkSync("../jest/bin/jest.js", path.join(bin, "jest"));
  // Written by an Edit, never made executable: not a program npm would run as it is.
  fs.writeFileSync(path.join(bin, "notes"), "#!/bin/sh\n", { mode: 0o644 });
  // A program from outside the project, linked in.
  const outside = path.join(root, "elsewhere", "tool");
  fs.mkdirSync(path.dirname(outside), { recursive: true });
  fs.writeFileSync(outside, "#!/bin/sh\n", { mode: 0o755 });
  fs.symlinkSync(outside, path.join(bin, "tool"));
});

const as = (agentType: string): PolicyAgent => ({ kind: "subagent", agentId: "a0123456789abcdef", agentType });

function decide(preset: string, command: string, cwd = project, presets: PresetSet = builtinPresetSet()) {
  return decidePolicy({ agent: as(preset), toolName: "Bash", input: { command } }, policyContext({ orchestration: true, presets, rules: [], cwd, home: root, fs: nodeWritePathFs }));
}

const allowed = (preset: string) => ({ decision: "allow", rule: `preset:${preset}` });
const denied = (preset: string, says: string) => ({ decision: "deny", rule: `preset:${preset}/exec`, message: expect.stringContaining(says) });
const Presets = ["scout", "analyst", "coder", "worker", "coordinator"];

describe("npm twins of the pnpm patterns", () => {
  it("are derived from each built-in preset's exec: coder its test, lint and format scripts, worker any script, coordinator test, run, exec and npx", () => {
    const twins = Object.fromEntries(builtinPresetSet().presets.map((p) => [p.name, npmTwinsShown(p.exec)]));
    expect(twins).toEqual({
      scout: [],
      analyst: [],
      coder: ["npm test", "npm run test|lint|format"],
      worker: ["npm run", "npm test"],
      coordinator: ["npm test", "npm run", "npm exec", "npx", "npm start|stop|restart"],
    });
    // pnpm's installs and dlx have no twin; a script pnpm runs by its name (`pnpm build`) is `npm run build`.
    expect(npmTwins(["pnpm install|add|dlx", "pnpm build|lint", "pnpm exec jest", "bun test", "pnpm run test --if-present"])).toEqual([
      "npm run|run-script|rum|urn build|lint",
      "npm exec|x jest",
      "npx jest",
      "npm run|run-script|rum|urn test --if-present",
    ]);
  });

  it("let the coder check its own work with npm test and its scripts, and keep builds for worker and coordinator", () => {
    for (const line of ["npm test", "npm t", "npm tst", "npm run test", "npm run lint", "npm run-script format", "npm test --silent", "npm run lint -- --fix", "npm test -- --prefix /tmp"]) {
      expect(decide("coder", line), line).toMatchObject(allowed("coder"));
    }
    expect(decide("coder", "npm run build")).toMatchObject(denied("coder", "coder may not run `npm run build`: that belongs to worker or coordinator; ask the conductor"));
    expect(decide("worker", "npm run build")).toMatchObject(allowed("worker"));
    expect(decide("coordinator", "npm run build && npm start")).toMatchObject(allowed("coordinator"));
    for (const preset of ["scout", "analyst"]) expect(decide(preset, "npm test"), preset).toMatchObject(denied(preset, "belongs to coder, worker or coordinator"));
  });

  it("run npx and npm exec only for a program the project has, and only where pnpm exec is allowed", () => {
    for (const line of ["npx jest", "npx jest --coverage --prefix x", "npm exec jest", "npm x -- jest --ci", "npx --no-install jest"]) {
      expect(decide("coordinator", line), line).toMatchObject(allowed("coordinator"));
    }
    expect(decide("coder", "npx jest")).toMatchObject(denied("coder", "coder may not run `npx jest`: that belongs to coordinator"));
    expect(decide("coordinator", "npx jest", bare)).toMatchObject(denied("coordinator", `\`jest\` is not a program of the project's own; ${NpxReason}`));
    // Not executable; linked in from outside the project.
    expect(decide("coordinator", "npx notes")).toMatchObject(denied("coordinator", NpxReason));
    expect(decide("coordinator", "npx tool")).toMatchObject(denied("coordinator", NpxReason));
    expect(decide("coordinator", "npx ../elsewhere/tool")).toMatchObject(denied("coordinator", NpxReason));
  });

  it("refuse a package the project does not have for every preset, with the seed's reason", () => {
    for (const preset of Presets) {
      for (const line of ["npx -y cowsay", "npx cowsay", "npx jest@29", "npx @scope/tool", "npx --package=jest jest", "npm exec --package=x y", "npm exec -y -- jest", "npx --yes jest", "/usr/bin/npx cowsay"]) {
        expect(decide(preset, line), `${preset}: ${line}`).toMatchObject(denied(preset, NpxReason));
      }
    }
    expect(decide("coordinator", "npx -y cowsay").message).toBe(`coordinator may not run \`npx -y cowsay\`: \`-y\` fetches a package; ${NpxReason}`);
  });

  it("refuse installs for every preset with the seed's reason, also by path and hidden in a line", () => {
    for (const preset of Presets) {
      for (const line of ["npm i left-pad", "npm install left-pad", "npm ci", "npm add left-pad", "npm update", "npm up", "npm install-test", "npm it", "npm cit", "npm link ../x", "npm rebuild", "npm uninstall x", "npm audit fix", "npm init vite", "/usr/bin/npm install", "go version && npm i left-pad"]) {
        const verdict = decide(preset, line);
        expect(verdict, `${preset}: ${line}`).toMatchObject({ decision: "deny", rule: `preset:${preset}/exec` });
        expect(verdict.message, `${preset}: ${line}`).toContain(NpmInstallReason);
      }
    }
    expect(decide("coder", "npm install left-pad").message).toBe(`coder may not run \`npm install left-pad\`: ${NpmInstallReason}`);
  });

  it("refuse the options that take npm out of the project, whatever the script, and any npm option a script could not have meant", () => {
    const moving: [string, string][] = [
      ["npm --prefix /tmp test", "`--prefix` points npm at another folder"],
      ["npm test --prefix /tmp", "`--prefix` points npm at another folder"],
      ["npm test --pre=/tmp", "`--pre=/tmp` points npm at another folder"],
      ["npm -C /tmp test", "`-C` points npm at another folder"],
      ["npm run test -g", "`-g` points npm at another folder than the project, or at the global one"],
      ["npm run test --location=global", "`--location=global` points npm"],
      ["npm run lint -w ../other", "`-w` runs npm in workspaces"],
      ["npm run lint --workspaces", "`--workspaces` runs npm in workspaces"],
      ["npm run --script-shell /bin/sh lint", "`--script-shell` names a program or code npm runs"],
      ["npm test --node-options=--require=/tmp/x.js", "names a program or code"],
      ["npm test --userconfig /tmp/npmrc", "makes npm read its settings"],
      ["npm exec -c 'rm -rf /' jest", "`-c` names a program or code npm runs"],
      ["npm run lint --fix", "npm reads `--fix` as a setting of its own; give the script's or program's options after `--` (`npm test -- --fix`)"],
      ["npm test $ARGS", "`$ARGS` is only known when the shell runs, and npm could read it as an option"],
      ["npm $CMD", "npm's command `$CMD` is only known when the shell runs"],
      ["echo --prefix=/tmp | xargs npm test", "xargs gives npm words only known when it runs"],
      // npx guesses whether an option before the program takes the next word: `-s` would run `silent`.
      ["npx -s jest", "npx reads `-s` by guesswork; write the program first (`npx jest -s`)"],
      ["npm --registry=https://example.com test", "`--registry=https://example.com` before npm's command"],
    ];
    for (const [line, says] of moving) expect(decide("coordinator", line), line).toMatchObject(denied("coordinator", says));
    expect(decide("worker", "npm -g install typescript")).toMatchObject(denied("worker", "`-g` points npm at another folder"));
  });

  it("run a script after a cd only inside the project, and npx only from the working folder", () => {
    expect(decide("coder", "cd src && npm test")).toMatchObject(allowed("coder"));
    expect(decide("coder", `cd ${project}/src && npm run lint`)).toMatchObject(allowed("coder"));
    expect(decide("coder", "cd /tmp && npm test")).toMatchObject(denied("coder", "after `cd /tmp` npm would run the package.json of a folder outside the project"));
    expect(decide("coder", "cd src && cd ../.. && npm test")).toMatchObject(denied("coder", "outside the project"));
    expect(decide("coder", "cd - && npm test")).toMatchObject(denied("coder", "Baton cannot tell which folder's package.json npm would run"));
    expect(decide("coder", "cd && npm test")).toMatchObject(denied("coder", "Baton cannot tell"));
    expect(decide("coordinator", "cd src && npx jest")).toMatchObject(denied("coordinator", "npx and npm exec run only from the working folder"));
  });

  it("reach the presets of a person's presets file, derived when judged; a file that still refuses all of npm keeps it refused", () => {
    const builtIns = builtinPresetSet();
    const tester: Preset = { ...builtIns.presets.find((p) => p.name === "coder")!, name: "tester", exec: ["pnpm exec jest|tsc", "pnpm build"] };
    const file: PresetSet = { presets: [tester], refused: builtIns.refused, source: "/home/user/.config/baton/presets.json" };
    expect(decide("tester", "npx jest", project, file)).toMatchObject(allowed("tester"));
    expect(decide("tester", "npm run build", project, file)).toMatchObject(allowed("tester"));
    expect(decide("tester", "npx tsc", project, file)).toMatchObject(denied("tester", "`tsc` is not a program of the project's own"));
    expect(decide("tester", "npm test", project, file)).toMatchObject(denied("tester", "tester may not run `npm test`; ask the conductor"));
    const older: PresetSet = { ...file, refused: [{ pattern: "npm", reason: "npm is refused for every preset" }] };
    expect(decide("tester", "npm run build", project, older)).toMatchObject(denied("tester", "tester may not run `npm run build`: npm is refused for every preset"));
  });

  it("are what the prompts tell the model", () => {
    const prompt = (name: string) => builtinPresetSet().presets.find((p) => p.name === name)!.prompt;
    expect(prompt("coder")).toContain("In an npm project you may also run `npm test`, `npm run test`, `npm run lint`, `npm run format`");
    expect(prompt("coder")).not.toContain("npx <program>");
    expect(prompt("worker")).toContain("`npm run <script>`");
    expect(prompt("coordinator")).toContain("`npx <program>` or `npm exec <program>` only for a program the project already has in node_modules/.bin");
    expect(prompt("scout")).not.toContain("In an npm project");
    for (const name of Presets) expect(prompt(name)).toContain(`${NpmInstallReason}.`);
  });
});

describe("a project's own programs", () => {
  it("are executables in node_modules/.bin of the working folder, seen only through the view given; a view that cannot tell has none", () => {
    const roots = [project];
    expect(npmProject(project, roots, nodeWritePathFs).hasProgram("jest")).toBe(true);
    expect(npmProject(bare, [bare], nodeWritePathFs).hasProgram("jest")).toBe(false);
    for (const name of ["notes", "tool", "missing", "../jest/bin/jest.js", ".", ""]) expect(npmProject(project, roots, nodeWritePathFs).hasProgram(name), name).toBe(false);
    const { isExecutable: _, ...noExec } = nodeWritePathFs;
    expect(npmProject(project, roots, noExec).hasProgram("jest")).toBe(false);
    const failing = { ...nodeWritePathFs, realPath: () => { throw new Error("EACCES"); } };
    expect(npmProject(project, roots, failing).hasProgram("jest")).toBe(false);
  });
});

describe("baton policy with npm", () => {
  let settings: string;
  beforeAll(() => {
    settings = path.join(root, "config", "settings.json");
    fs.mkdirSync(path.dirname(settings), { recursive: true });
  });

  async function policy(...args: string[]) {
    const io = bufferIO();
    const code = await run([...args, "--settings", settings], io);
    return { code, out: io.out(), err: io.err() };
  }
  const verdict = async (preset: string, command: string, cwd: string) => JSON.parse((await policy(preset, "Bash", JSON.stringify({ command }), "--cwd", cwd, "--orchestration", "--json")).out) as unknown;

  it("gives the same verdicts, with the project in --cwd", async () => {
    expect(await verdict("coder", "npm test", project)).toMatchObject(allowed("coder"));
    expect(await verdict("coder", "npm run build", project)).toMatchObject({ decision: "deny" });
    expect(await verdict("coordinator", "npx jest", project)).toMatchObject(allowed("coordinator"));
    expect(await verdict("coordinator", "npx jest", bare)).toMatchObject(denied("coordinator", NpxReason));
    expect(await verdict("coder", "npm i left-pad", project)).toMatchObject(denied("coder", NpmInstallReason));
  });

  it("--list names each preset's npm commands, writes and network, and what is refused for every preset with why", async () => {
    const { out } = await policy("--list");
    const section = (name: string) => out.slice(out.indexOf(`\n${name} (`), out.indexOf("\n\n", out.indexOf(`\n${name} (`) + 1));
    expect(section("coder")).toContain("  npm: npm test; npm run test|lint|format\n  write: inside the session's folder or its worktree\n  network: none\n");
    expect(section("scout")).toContain("  npm: none\n  write: nothing\n  network: none\n");
    expect(section("worker")).toContain("  network: registry.npmjs.org, registry.yarnpkg.com, pypi.org");
    expect(section("coordinator")).toContain("npx <a program already in node_modules/.bin>");
    expect(section("coordinator")).toContain("  network: any host\n");
    const refused = out.slice(out.indexOf("Refused for every preset:"));
    expect(refused).toContain(`  npm install|ci|install-test|install-ci-test|update|uninstall|link|rebuild|dedupe|prune|init|…: ${NpmInstallReason}\n`);
    expect(refused).toContain(`  npx or npm exec of a package the project does not have: ${NpxReason}\n`);
    expect(refused).toContain("npm --prefix, -g, --workspace");
    const listed = JSON.parse((await policy("--list", "--json")).out) as { presets: { name: string; npm: string[]; network: string[] }[]; refused: { pattern: string }[]; npmRules: { what: string }[] };
    expect(listed.presets.find((p) => p.name === "worker")).toMatchObject({ npm: ["npm run", "npm test"], network: expect.arrayContaining(["registry.npmjs.org"]) });
    expect(listed.refused[0]!.pattern).toMatch(/^npm install\|ci\|.*\|innit$/);
    expect(listed.npmRules.map((r) => r.what)).toEqual([expect.stringContaining("npx or npm exec"), expect.stringContaining("--prefix")]);
  });
});
