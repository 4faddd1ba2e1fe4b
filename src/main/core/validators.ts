// The checks of whatever arrives from the page (Electron IPC or web-mode WebSocket), before anything
// runs: each method's arguments and each subscription's key, by the contract's schemas
// (src/shared/apiContract.ts). Wrong types, unknown fields, missing or extra arguments and oversized
// values become `invalid_argument`, with the first problem in words. Pure.

import type { z } from "zod";
import type { ApiError } from "../../shared/api.js";
import { problemOf } from "../../shared/apiChecks.js";
import { ApiMethods, ApiSubscriptions, type MethodArgs, type SubscriptionKey } from "../../shared/apiContract.js";
import { BatonMethodNames, keyOf, type BatonMethodName, type SubscriptionName } from "../../shared/apiNames.js";

type Refusal = { readonly ok: false; readonly error: ApiError };

export function isMethodName(name: unknown): name is BatonMethodName {
  return typeof name === "string" && (BatonMethodNames as readonly string[]).includes(name);
}

/** The arguments, checked (as the schemas give them back); trailing undefined optionals are dropped. */
export function validateArgs<M extends BatonMethodName>(method: M, args: unknown): { readonly ok: true; readonly args: MethodArgs<M> } | Refusal {
  if (!Array.isArray(args)) return invalid(`${method}: arguments must be a list`);
  const specs = ApiMethods[method].args;
  const required = specs.filter((a) => !a.optional).length;
  const list: unknown[] = [...args];
  while (list.length > required && list[list.length - 1] === undefined) list.pop();
  if (list.length < required) return invalid(`${method}: expected ${required} argument(s), got ${list.length}`);
  if (list.length > specs.length) return invalid(`${method}: too many arguments (${list.length})`);
  const checked: unknown[] = [];
  for (const [i, value] of list.entries()) {
    const spec = specs[i]!;
    if (spec.optional && value === undefined) {
      checked.push(undefined);
      continue;
    }
    const parsed = spec.schema.safeParse(value);
    if (!parsed.success) return invalid(`${method}: ${problemOf(parsed.error.issues, spec.name)}`);
    checked.push(parsed.data);
  }
  // Each value passed its argument's schema, in order, and the count fits: this list is the
  // method's argument tuple (the compiler cannot follow a loop over the table into a tuple type).
  return { ok: true, args: checked as MethodArgs<M> };
}

/** A subscription's key (a tab id), checked; one that takes none gets undefined, whatever came. */
export function validateKey<S extends SubscriptionName>(name: S, key: unknown): { readonly ok: true; readonly key: SubscriptionKey<S> } | Refusal {
  const spec: { readonly key?: z.ZodType<string>; readonly sends: unknown } = ApiSubscriptions[name];
  if (spec.key === undefined) return { ok: true, key: undefined as SubscriptionKey<S> };
  const parsed = spec.key.safeParse(key);
  if (!parsed.success) return invalid(`${name}: ${problemOf(parsed.error.issues, keyOf(name) ?? "key")}`);
  return { ok: true, key: parsed.data as SubscriptionKey<S> };
}

function invalid(message: string): Refusal {
  return { ok: false, error: { code: "invalid_argument", message } };
}
