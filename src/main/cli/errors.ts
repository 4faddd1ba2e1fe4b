// Typed errors of the protocol client. Callers branch on `code` and the fields, never on text
// (like the Agent SDK's CLINotFoundError / ProcessError).

/** Base class: every error this client throws or rejects with. */
export abstract class ClaudeClientError extends Error {
  abstract readonly code: string;
}

/** The `claude` binary could not be started (ENOENT, EACCES, not executable). */
export class ClaudeNotFoundError extends ClaudeClientError {
  readonly code = "claude_not_found";
  constructor(
    /** The path Baton tried to run. */
    readonly path: string,
    /** The OS error code (`ENOENT`, `EACCES`, …) when there was one. */
    readonly osCode: string | undefined,
    /** Every place that was searched, when the path came from `findClaude`. */
    readonly searched: readonly string[] = [],
  ) {
    super(
      `Claude Code CLI not found or not executable at "${path}"` +
        (osCode ? ` (${osCode})` : "") +
        ". Install it (npm install -g @anthropic-ai/claude-code) or point Baton at it with " +
        "--claude <path> or BATON_CLAUDE_PATH.",
    );
    this.name = "ClaudeNotFoundError";
  }
}

/** The CLI exited (or crashed) when it was not asked to. */
export class ClaudeProcessError extends ClaudeClientError {
  readonly code = "claude_process_exited";
  constructor(
    readonly exitCode: number | null,
    readonly signal: string | null,
    /** The last bytes the CLI wrote to stderr (bounded). */
    readonly stderrTail: string,
    /** It ended before it was ready (no answer to `initialize`): its own words are all there is to go on. */
    readonly atStart = false,
  ) {
    const how = signal ? `was killed by ${signal}` : `exited with code ${String(exitCode)}`;
    const tail = stderrTail.trim();
    super(
      `Claude Code CLI ${how}${atStart ? " as it started" : ""}` +
        (tail ? `: ${lastLines(tail, 5)}` : " (no stderr output)") +
        (atStart ? `${tail ? "\n" : ". "}To see why, run claude in a terminal in this folder; baton doctor checks the install.` : ""),
    );
    this.name = "ClaudeProcessError";
  }
}

/** Baton killed the CLI because it stopped responding (a Stop it did not act on in time). */
export class ClaudeUnresponsiveError extends ClaudeClientError {
  readonly code = "claude_unresponsive";
  constructor(
    /** What it did not do, as the person reads it. */
    readonly reason: string,
    readonly signal: string | null,
  ) {
    super(`${reason} Baton killed it${signal ? ` (${signal})` : ""}.`);
    this.name = "ClaudeUnresponsiveError";
  }
}

/** The CLI is not reading its input: this line would pass the bound on what waits for it (stdinWriter.ts). */
export class ClaudeInputBacklogError extends ClaudeClientError {
  readonly code = "claude_input_backlog";
  constructor(
    readonly operation: string,
    /** Bytes already waiting for the CLI to read them. */
    readonly queuedBytes: number,
  ) {
    super(
      `Cannot ${operation}: Claude Code is not reading its input (${Math.ceil(queuedBytes / (1024 * 1024))} MB wait for it). ` +
        "Baton stops it if it does not catch up; then send again.",
    );
    this.name = "ClaudeInputBacklogError";
  }
}

/** An outgoing control request got no answer in time. */
export class ControlRequestTimeoutError extends ClaudeClientError {
  readonly code = "control_request_timeout";
  constructor(
    readonly subtype: string,
    readonly requestId: string,
    readonly timeoutMs: number,
  ) {
    super(`No answer to control request "${subtype}" (${requestId}) within ${timeoutMs} ms`);
    this.name = "ControlRequestTimeoutError";
  }
}

/** The CLI answered an outgoing control request with `subtype: "error"`. */
export class ControlRequestFailedError extends ClaudeClientError {
  readonly code = "control_request_failed";
  constructor(
    readonly subtype: string,
    readonly requestId: string,
    readonly cliMessage: string,
  ) {
    super(`Control request "${subtype}" failed: ${cliMessage}`);
    this.name = "ControlRequestFailedError";
  }
}

/** The client is not running (never started, stopped, or its process is gone). */
export class ClientNotRunningError extends ClaudeClientError {
  readonly code = "client_not_running";
  constructor(readonly operation: string) {
    super(`Cannot ${operation}: the Claude Code process is not running`);
    this.name = "ClientNotRunningError";
  }
}

/** `stop()` was called while this request was pending. */
export class ClientStoppedError extends ClaudeClientError {
  readonly code = "client_stopped";
  constructor(readonly operation: string) {
    super(`${operation} was abandoned because the client was stopped`);
    this.name = "ClientStoppedError";
  }
}

function lastLines(text: string, count: number): string {
  return text.split("\n").slice(-count).join("\n");
}

/** The working directory given for the CLI does not exist or is not a directory. */
export class WorkingDirectoryError extends ClaudeClientError {
  readonly code = "bad_working_directory";
  constructor(readonly cwd: string) {
    super(`Working directory "${cwd}" does not exist or is not a directory`);
    this.name = "WorkingDirectoryError";
  }
}
