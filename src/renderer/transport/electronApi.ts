// BatonApi in the Electron window: the preload's `window.baton` already is one (named IPC calls,
// Results, unsubscribe functions; src/preload/bridge.ts). This adapter checks its shape once, by
// the contract's names, so a missing member is a clear error at startup rather than a crash on
// first use. Its functions use no `this`, so callers may pass them around.

import type { BatonApi } from "../../shared/api.js";
import { BatonMethodNames, SubscriptionNames } from "../../shared/apiNames.js";

export function isBatonApi(value: unknown): value is BatonApi {
  if (typeof value !== "object" || value === null) return false;
  return [...BatonMethodNames, ...SubscriptionNames].every((name) => typeof (value as Record<string, unknown>)[name] === "function");
}

export function createElectronApi(bridge: unknown): BatonApi {
  if (!isBatonApi(bridge)) throw new Error("window.baton is not Baton's API: the preload is missing or out of date");
  return bridge;
}
