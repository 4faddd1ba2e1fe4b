// A BatonApi built from two functions, by looping over the contract's names: every method becomes
// `call(name, args)`, every subscription `subscribe(name, key, listener)`. The preload, web mode's
// client and the BatonService's own face are each one of these, so none of them lists the methods
// (and none can miss one). No zod here: the preload bundles what it imports.

import type { Result, Unsubscribe } from "./api.js";
import type { BatonApi } from "./apiContract.js";
import { BatonMethodNames, keyOf, SubscriptionNames, type BatonMethodName, type SubscriptionName } from "./apiNames.js";

export interface ApiTransport {
  /** The arguments as the caller gave them, trailing absent optionals dropped (JSON would make them null). */
  call(method: BatonMethodName, args: readonly unknown[]): Promise<Result<unknown>>;
  /** `key` is undefined for a subscription that takes none. */
  subscribe(name: SubscriptionName, key: unknown, listener: (payload: unknown) => void): Unsubscribe;
}

export function apiOver(transport: ApiTransport): BatonApi {
  const api: Record<string, (...args: never[]) => unknown> = {};
  for (const method of BatonMethodNames) {
    api[method] = (...args: unknown[]) => transport.call(method, withoutTrailingUndefined(args));
  }
  for (const name of SubscriptionNames) {
    api[name] =
      keyOf(name) === undefined
        ? (listener: (payload: unknown) => void) => transport.subscribe(name, undefined, listener)
        : (key: unknown, listener: (payload: unknown) => void) => transport.subscribe(name, key, listener);
  }
  // Built member by member from the contract's names, each with the shape BatonApi gives it.
  return api as unknown as BatonApi;
}

function withoutTrailingUndefined(args: readonly unknown[]): unknown[] {
  const list = [...args];
  while (list.length > 0 && list[list.length - 1] === undefined) list.pop();
  return list;
}
