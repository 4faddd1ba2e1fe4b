// How many cases each fuzz property runs, and from which seed. A run picks a fresh seed (each CI
// run explores new cases); fast-check prints the seed and path of a failure, and
// `BATON_FUZZ_SEED=<seed>` runs that case again. `BATON_FUZZ_RUNS=<factor>` multiplies every
// property's case count (a longer hunt on a quiet machine; below 1 for a quick look).

import type { Parameters } from "fast-check";

const seedText = process.env["BATON_FUZZ_SEED"];
const factorText = process.env["BATON_FUZZ_RUNS"];

function numberFrom(name: string, text: string | undefined): number | undefined {
  if (text === undefined || text === "") return undefined;
  const value = Number(text);
  if (!Number.isFinite(value)) throw new Error(`${name}=${text}: not a number`);
  return value;
}

const seed = numberFrom("BATON_FUZZ_SEED", seedText);
const factor = numberFrom("BATON_FUZZ_RUNS", factorText) ?? 1;

/** fast-check parameters for a property of `numRuns` cases (scaled by BATON_FUZZ_RUNS), seeded by BATON_FUZZ_SEED when set. */
export function fuzzParameters<T>(numRuns: number): Parameters<T> {
  return {
    numRuns: Math.max(1, Math.round(numRuns * factor)),
    ...(seed === undefined ? {} : { seed: Math.trunc(seed) }),
  };
}
