// Deterministic pseudo-text for generated archives: a Zipf-distributed vocabulary (so search has
// common, middling and rare words, like real transcripts) composed from a pool of paragraphs.

export class Rng {
  private s: number;
  constructor(seed: number) {
    this.s = seed >>> 0 || 1;
  }
  next(): number {
    // xorshift32
    let x = this.s;
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    this.s = x >>> 0;
    return this.s / 0x100000000;
  }
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }
  hex(n: number): string {
    let out = "";
    while (out.length < n) out += Math.floor(this.next() * 0x100000000).toString(16).padStart(8, "0");
    return out.slice(0, n);
  }
  uuid(): string {
    const h = this.hex(32);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
  }
}

const SYLLABLES = ["ka", "lo", "mi", "ren", "to", "vel", "sar", "qu", "in", "dor", "pe", "zu", "han", "bri", "ox", "el", "fen", "gra", "tis", "mon"];

export class TextPool {
  readonly words: string[];
  private readonly cumulative: Float64Array;
  private readonly paragraphs: string[];

  constructor(
    private readonly rng: Rng,
    vocabulary = 8000,
    paragraphCount = 3000,
  ) {
    const seen = new Set<string>();
    this.words = [];
    while (this.words.length < vocabulary) {
      let w = "";
      const n = rng.int(2, 4);
      for (let i = 0; i < n; i++) w += rng.pick(SYLLABLES);
      if (!seen.has(w)) {
        seen.add(w);
        this.words.push(w);
      }
    }
    this.cumulative = new Float64Array(vocabulary);
    let total = 0;
    for (let i = 0; i < vocabulary; i++) this.cumulative[i] = total += 1 / (i + 1);
    for (let i = 0; i < vocabulary; i++) this.cumulative[i]! /= total;
    this.paragraphs = [];
    for (let i = 0; i < paragraphCount; i++) this.paragraphs.push(this.sentence(rng.int(20, 160)));
  }

  word(): string {
    const r = this.rng.next();
    let lo = 0;
    let hi = this.cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.cumulative[mid]! < r) lo = mid + 1;
      else hi = mid;
    }
    return this.words[lo]!;
  }

  sentence(n: number): string {
    const out: string[] = [];
    for (let i = 0; i < n; i++) out.push(this.word());
    return out.join(" ");
  }

  /** About `bytes` of text, from whole paragraphs. */
  text(bytes: number): string {
    const parts: string[] = [];
    let len = 0;
    while (len < bytes) {
      const p = this.rng.pick(this.paragraphs);
      parts.push(p);
      len += p.length + 1;
    }
    return parts.join("\n");
  }

  /** A phrase that really occurs in the pool, for phrase queries. */
  phrase(words: number): string {
    const p = this.rng.pick(this.paragraphs).split(" ");
    const start = this.rng.int(0, Math.max(0, p.length - words));
    return p.slice(start, start + words).join(" ");
  }
}
