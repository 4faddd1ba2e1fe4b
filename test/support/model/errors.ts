// Typed failures of the scripted model server, so tests branch on `code`, not message text.

export class ModelServerClosedError extends Error {
  readonly code = "MODEL_SERVER_CLOSED";
  constructor() {
    super("model server closed");
  }
}

export class WaitForRequestTimeoutError extends Error {
  readonly code = "WAIT_FOR_REQUEST_TIMEOUT";
  constructor(
    readonly timeoutMs: number,
    readonly seen: readonly string[],
  ) {
    super(`no matching request within ${timeoutMs} ms; seen: ${seen.join(", ") || "(none)"}`);
  }
}
