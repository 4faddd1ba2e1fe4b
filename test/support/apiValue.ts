// An API call's value, or the test fails with the error's code and message.
import type { Result } from "../../src/shared/api.js";

export function value<T>(result: Result<T>): T {
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.value;
}
