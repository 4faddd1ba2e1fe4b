// The worktree module's refusals, awaited: a test says which action must refuse and reads why.
import { expect } from "vitest";
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
