// The BatonApi instance the UI talks through, set once at startup (main.tsx) or by a test harness.
import type { BatonApi, Result } from "../shared/api.js";
import { addLog } from "./state/appState.js";

let current: BatonApi | undefined;

export function setApi(instance: BatonApi): void {
  current = instance;
}

export function api(): BatonApi {
  if (current === undefined) throw new Error("BatonApi not set: call setApi() at startup");
  return current;
}

/** Logs a failed call to the Console panel; returns the value or undefined. */
export function report<T>(what: string, result: Result<T>): T | undefined {
  if (result.ok) return result.value;
  addLog({ time: new Date().toISOString(), level: "error", source: "baton", message: `${what}: ${result.error.message}`, fields: { code: result.error.code } });
  return undefined;
}
