// An isolated environment for running the real `claude` CLI in tests: a temp HOME, a working
// directory with a neutral-looking path (<tmp>/…/home/user/code/<name>), and an env that points
// the CLI at the scripted model server and keeps the developer's own Claude settings out.

import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { TestedCliVersions } from "../../src/shared/testedCliVersions.js";

export interface CliEnv {
  /** Temp HOME (…/home/user). */
  home: string;
  /** Working directory for the CLI (<home>/code/<cwdName>). */
  cwd: string;
  env: NodeJS.ProcessEnv;
  claudePath: string;
  /** The version of `claudePath`, for the few assertions that differ between CLI versions. */
  cliVersion: TestCliVersion;
  /** Where the CLI writes session history: <home>/.claude/projects. */
  projectsDir: string;
  cleanup(): Promise<void>;
}

export interface CliEnvOptions {
  baseUrl: string;
  cwdName?: string;
  extraEnv?: Record<string, string>;
  /** The CLI version to run (default: testCliVersion()). */
  cliVersion?: TestCliVersion;
}

export const TEST_API_KEY = "sk-ant-test";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** The CLI versions the tests can run, each installed as a devDependency (see package.json). */
export const TestCliBinaries = {
  "2.1.332": ["node_modules", "@anthropic-ai", "claude-code", "bin", "claude.exe"],
  "2.1.197": ["node_modules", "claude-code-2.1.197", "bin", "claude.exe"],
} as const satisfies Record<(typeof TestedCliVersions)[number], readonly string[]>;

export type TestCliVersion = keyof typeof TestCliBinaries;

/**
 * The CLI version a test run uses: BATON_TEST_CLI (vitest.config.ts sets it per project), else
 * 2.1.332. An unknown value is an error, so a typo never silently tests the default.
 */
export function testCliVersion(env: NodeJS.ProcessEnv = process.env): TestCliVersion {
  const wanted = env["BATON_TEST_CLI"];
  if (wanted === undefined || wanted === "") return "2.1.332";
  if (Object.hasOwn(TestCliBinaries, wanted)) return wanted as TestCliVersion;
  throw new Error(`BATON_TEST_CLI=${wanted}: not one of ${Object.keys(TestCliBinaries).join(", ")}`);
}

/**
 * The real CLI binary of `version` (default: testCliVersion()) from the repo's node_modules,
 * symlinks resolved. Tests pass it to Baton explicitly: Baton's own lookup never picks it.
 */
export function claudeBinaryPath(version: TestCliVersion = testCliVersion()): string {
  return fs.realpathSync(path.join(repoRoot, ...TestCliBinaries[version]));
}

/** Variables of the developer's own Claude setup that would change how the CLI behaves. */
function isLeakyVar(name: string): boolean {
  return name.startsWith("ANTHROPIC_") || name.startsWith("CLAUDE_") || name === "CLAUDECODE";
}

/** The process env minus leaky vars, plus what points the CLI at the scripted server. */
export function cliProcessEnv(home: string, baseUrl: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!isLeakyVar(name)) env[name] = value;
  }
  return {
    ...env,
    HOME: home,
    USERPROFILE: home,
    ANTHROPIC_BASE_URL: baseUrl,
    ANTHROPIC_API_KEY: TEST_API_KEY,
    IS_SANDBOX: "1",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_TELEMETRY: "1",
    DISABLE_AUTOUPDATER: "1",
    DISABLE_ERROR_REPORTING: "1",
    ...extra,
  };
}

/**
 * Global config that marks onboarding as done and the working directory as trusted, so the CLI
 * never stops on a first-run prompt (without -p it would otherwise ask).
 */
function globalConfig(cwd: string): Record<string, unknown> {
  return {
    hasCompletedOnboarding: true,
    numStartups: 1,
    customApiKeyResponses: { approved: [TEST_API_KEY.slice(-20)], rejected: [] },
    projects: {
      [cwd]: { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true, allowedTools: [] },
    },
  };
}

export async function createCliEnv(opts: CliEnvOptions): Promise<CliEnv> {
  // realpath: the CLI names history folders after the resolved cwd (matters where /tmp is a link).
  const cliVersion = opts.cliVersion ?? testCliVersion();
  const root = await fsp.realpath(await fsp.mkdtemp(path.join(os.tmpdir(), "baton-cli-")));
  const home = path.join(root, "home", "user");
  const cwd = path.join(home, "code", opts.cwdName ?? "project");
  await fsp.mkdir(cwd, { recursive: true });
  await fsp.mkdir(path.join(home, ".claude"), { recursive: true });
  await fsp.writeFile(path.join(home, ".claude.json"), JSON.stringify(globalConfig(cwd), null, 2));
  return {
    home,
    cwd,
    env: cliProcessEnv(home, opts.baseUrl, opts.extraEnv),
    claudePath: claudeBinaryPath(cliVersion),
    cliVersion,
    projectsDir: path.join(home, ".claude", "projects"),
    cleanup: () => fsp.rm(root, { recursive: true, force: true }),
  };
}
