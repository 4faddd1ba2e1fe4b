import { StoreError } from "../../src/main/platform/sqlite/errors.js";

/** The StoreError `p` rejects with; fails the test when it resolves or rejects with anything else. */
export async function storeRejection(p: Promise<unknown>): Promise<StoreError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof StoreError) return err;
    throw err;
  }
  throw new Error("expected the store call to fail with a StoreError");
}
