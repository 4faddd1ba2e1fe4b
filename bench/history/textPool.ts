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

/**
 * Common characters of Chinese, Japanese kana and Korean hangul: a CJK pool's words are one to three
 * of them, written without spaces (bench:history --cjk).
 */
export const CJK_SYLLABLES = [
  ..."的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年得就那要下以生会自着去之过家学对可她里后小么心多天而能好都然没日于起还发成事只作当想看文无开手十用主行方又如前所本见经头面公同三已老从动两长知民样现分将外但身些与高意进把法此实回二理美点月明其种声全工己话儿者向情部正名定女问力机给等几很业最间新什打便位因重被走电四第门相次东政海口使教西再平真听世气信北少关并内加化由却代军产入先山五太水万市眼体别处总才场师书比住员九笑性通目华报立马命张活难神数件安表原车白应路期叫死常提感金何更反合放做系计或司利受光王果亲界及今京务制解各任至清物台象记边共风战干接它许八特觉望直服毛林题建南度统色字请交爱让认算论百吃义科怎元社术结六功指思非流每青管夫连远资队跟带花快条院变联言权往展该领传近留红治决周保达办运武半候七必城父强步完革深区即求品士转量空甚众技轻程告江语英基派满式李息写呢识极令黄德收脸钱党倒未持取设始版双历越史商千片容研像找友孩站广改议形委早房音火际则首单据导影失拿网香似斯专石若兵弟谁校读志飞观争究包组造落视济喜离虽坐集编宝谈府拉黑且随格尽剑讲布杀微怕母调局根曾准团段终乐切级克精哪官示冷".split(""),
  ..."あいうえおかきくけこさしすせそたちつてとなにぬねのはひふへほまみむめもやゆよらりるれろわをんアイウエオカキクケコサシスセソタチツテトナニヌネノ".split(""),
  ..."가나다라마바사아자차카타파하거너더러머버서어저처고노도로모보소오조초구누두루무부수우주추".split(""),
];

export interface PoolShape {
  /** What words are made of (default: Latin-looking syllables). */
  readonly syllables?: readonly string[];
  /** Between a sentence's words (default a space; "" for CJK, written without spaces). */
  readonly joiner?: string;
}

export class TextPool {
  readonly words: string[];
  private readonly cumulative: Float64Array;
  private readonly paragraphs: string[];
  private readonly joiner: string;

  constructor(
    private readonly rng: Rng,
    vocabulary = 8000,
    paragraphCount = 3000,
    shape: PoolShape = {},
  ) {
    const syllables = shape.syllables ?? SYLLABLES;
    this.joiner = shape.joiner ?? " ";
    const seen = new Set<string>();
    this.words = [];
    while (this.words.length < vocabulary) {
      let w = "";
      const n = shape.syllables === undefined ? rng.int(2, 4) : rng.int(1, 3);
      for (let i = 0; i < n; i++) w += rng.pick(syllables);
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
    return out.join(this.joiner);
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

  /** `chars` characters that really occur in a paragraph (a CJK pool's: part of a run), for queries. */
  substring(chars: number): string {
    const p = [...this.rng.pick(this.paragraphs)];
    const start = this.rng.int(0, Math.max(0, p.length - chars));
    return p.slice(start, start + chars).join("");
  }
}
