// Typed failures of the app core; BatonService turns them (and anything else thrown) into
// `{ ok: false, error: { code, message } }` so nothing throws across the IPC/WebSocket boundary.

import type { ApiError } from "../../shared/api.js";
import { ClaudeClientError } from "../cli/errors.js";

export class AppError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "AppError";
  }
}

/** Client error codes → the API's stable codes. */
const ClientCodes: Record<string, string> = {
  claude_not_found: "cli_not_found",
  claude_process_exited: "process_error",
  claude_unresponsive: "process_error",
  claude_input_backlog: "cli_not_reading",
  bad_working_directory: "bad_working_directory",
  client_not_running: "not_running",
  client_stopped: "not_running",
  control_request_timeout: "timeout",
  control_request_failed: "cli_refused",
};

export function toApiError(error: unknown): ApiError {
  if (error instanceof AppError) return { code: error.code, message: error.message };
  if (error instanceof ClaudeClientError) return { code: ClientCodes[error.code] ?? "process_error", message: error.message };
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  // History errors carry their own codes ("not_found", "unreadable").
  if (typeof code === "string" && /^[a-z_]+$/.test(code)) return { code, message };
  return { code: "internal", message };
}
