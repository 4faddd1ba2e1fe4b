// The worktree module's refusals, awaited: a test says which action must refuse and reads why.
import { expect } from "vitest";
import type { ApiError } from "../../src/shared/api.js";
import { toApiError } from "../../src/main/core/appError.js";
import { WorktreeActionError } from "../../src/main/worktrees/index.js";

/** The WorktreeActionError `p` rejects with; fails the test when it resolves or rejects otherwise. */
export async function refusal(p: Promise<unknown>): Promise<WorktreeActionError> {
  const error = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WorktreeActionError);
  return error as WorktreeActionError;
}

/** The API error a tab's worktree action `p` rejects with (code and message), as the window gets it. */
export async function apiRefusal(p: Promise<unknown>): Promise<ApiError> {
  const error = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeDefined();
  return toApiError(error);
}
