// Git as a child process: an argument array (never a shell), a timeout, a bounded output, and an
// environment that keeps git from prompting or translating its messages.
import { execFile } from "node:child_process";

export const GitTimeoutMs = 30_000;
const MaxOutput = 64 * 1024 * 1024;

export interface GitResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** git exited non-zero, timed out, or could not start. */
export class GitError extends Error {
  constructor(
    readonly args: readonly string[],
    readonly code: number | string,
    readonly stderr: string,
  ) {
    super(`git ${args.join(" ")} failed (${code}): ${stderr.trim().split("\n")[0] ?? ""}`);
    this.name = "GitError";
  }
}

export interface GitOptions {
  readonly cwd: string;
  readonly timeoutMs?: number;
  readonly env?: Readonly<Record<string, string>>;
}

function gitEnv(extra: Readonly<Record<string, string>> | undefined): NodeJS.ProcessEnv {
  return {
    ...process.env,
    LC_ALL: "C",
    GIT_TERMINAL_PROMPT: "0",
    // Reading status must not take the index lock out from under a running agent.
    GIT_OPTIONAL_LOCKS: "0",
    ...extra,
  };
}

/** Runs git; resolves with the exit code (no throw on non-zero), rejects only when git could not run or timed out. */
export function gitRun(args: readonly string[], options: GitOptions): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    execFile(
      "git",
      [...args],
      { cwd: options.cwd, env: gitEnv(options.env), timeout: options.timeoutMs ?? GitTimeoutMs, maxBuffer: MaxOutput, encoding: "utf8", windowsHide: true },
      (error, stdout, stderr) => {
        if (error === null) return resolve({ code: 0, stdout, stderr });
        const code = (error as { code?: unknown }).code;
        if (typeof code === "number") return resolve({ code, stdout, stderr });
        const killed = (error as { killed?: boolean }).killed === true ? "timeout" : String(code ?? error.message);
        reject(new GitError(args, killed, stderr || error.message));
      },
    );
  });
}

/** Runs git and returns stdout; a non-zero exit is a GitError. */
export async function git(args: readonly string[], options: GitOptions): Promise<string> {
  const result = await gitRun(args, options);
  if (result.code !== 0) throw new GitError(args, result.code, result.stderr);
  return result.stdout;
}
