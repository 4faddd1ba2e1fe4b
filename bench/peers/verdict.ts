// The arithmetic of bench:peers, apart from the processes it times: medians, percentiles, the
// ratio each target is stated in and its PASS/FAIL. Pure, so a unit test holds it.

/** How a target compares Baton's figure with a peer's (both in the same unit, lower is better). */
export type Target =
  /** Baton's figure at most `ratio` times the peer's (cold list ≤ 0.5× the fastest peer). */
  | { readonly kind: "atMost"; readonly ratio: number }
  /** The peer's figure at least `factor` times Baton's (warm list, search: ≥ 20× faster). */
  | { readonly kind: "fasterBy"; readonly factor: number }
  /** Baton's figure below the peer's (peak memory). */
  | { readonly kind: "less" };

export interface Verdict {
  /** Baton / peer for `atMost` and `less`, peer / Baton for `fasterBy`: the number the target is stated in. */
  readonly ratio: number;
  readonly pass: boolean;
  /** `0.34×`, `41.2× faster`: the ratio as the row prints it. */
  readonly shown: string;
  /** `≤ 0.5×`, `≥ 20× faster`, `< 1×`. */
  readonly target: string;
}

export function verdict(target: Target, baton: number, peer: number): Verdict {
  if (!(baton >= 0) || !(peer >= 0)) throw new Error(`a figure to compare is not a number: Baton ${baton}, peer ${peer}`);
  switch (target.kind) {
    case "atMost": {
      const ratio = baton / peer;
      return { ratio, pass: ratio <= target.ratio, shown: `${fixed(ratio)}×`, target: `≤ ${target.ratio}×` };
    }
    case "less": {
      const ratio = baton / peer;
      return { ratio, pass: baton < peer, shown: `${fixed(ratio)}×`, target: "< 1×" };
    }
    case "fasterBy": {
      // A Baton figure of 0 (below the clock's resolution) is as fast as can be told.
      const ratio = baton === 0 ? Number.POSITIVE_INFINITY : peer / baton;
      return { ratio, pass: ratio >= target.factor, shown: `${fixed(ratio)}× faster`, target: `≥ ${target.factor}× faster` };
    }
  }
}

/** PASS or FAIL, as printed beside each row. */
export const passFail = (v: Verdict): string => (v.pass ? "PASS" : "FAIL");

/** The peer with the lowest figure: the one "the fastest peer" targets compare against. */
export function fastest<T extends { readonly value: number }>(peers: readonly T[]): T | undefined {
  let best: T | undefined;
  for (const p of peers) if (Number.isFinite(p.value) && (best === undefined || p.value < best.value)) best = p;
  return best;
}

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return Number.NaN;
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** The nearest-rank percentile (p in 0–100), as bench:history computes its search p95. */
export function percentile(xs: readonly number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return Number.NaN;
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
}

function fixed(ratio: number): string {
  if (!Number.isFinite(ratio)) return "∞";
  return ratio >= 100 ? ratio.toFixed(0) : ratio >= 10 ? ratio.toFixed(1) : ratio.toFixed(2);
}
