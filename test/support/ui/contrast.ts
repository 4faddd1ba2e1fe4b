// WCAG 2 text contrast, measured in the page as a person sees it: for every visible element that
// draws text (its own text nodes, or a field's value), the computed colour against its effective
// background (the backgrounds behind it composited up to the first opaque one), with the opacity
// of its ancestors. Normal text needs 4.5:1, large text (24 px, or 18.66 px bold) 3:1 (AA, 1.4.3).
// Inactive controls (disabled), hidden and decorative (aria-hidden, animated) text are exempt, as
// WCAG exempts them, and so is what a modal dialog covers: with one open, only the dialog is read.
import type { Page } from "playwright-core";

export type Rgba = readonly [r: number, g: number, b: number, a: number];

export interface ContrastProblem {
  /** The text, cut to 60 characters. */
  readonly text: string;
  /** Where it is: a short selector path ending at the element. */
  readonly where: string;
  readonly color: string;
  readonly background: string;
  readonly ratio: number;
  readonly needed: number;
}

/**
 * The arithmetic, self-contained so that it runs in the page as it does in Node (its source is
 * sent to the page: nothing in it may name anything outside it).
 */
export function contrastMath() {
  const channel = (c: number): number => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  /** Relative luminance of an opaque sRGB colour. */
  const luminance = (c: Rgba): number => 0.2126 * channel(c[0]) + 0.7152 * channel(c[1]) + 0.0722 * channel(c[2]);
  /** `top` (with its alpha) painted over the opaque `under`. */
  const over = (top: Rgba, under: Rgba): Rgba => {
    const a = top[3];
    return [top[0] * a + under[0] * (1 - a), top[1] * a + under[1] * (1 - a), top[2] * a + under[2] * (1 - a), 1];
  };
  const ratio = (a: Rgba, b: Rgba): number => {
    const la = luminance(a);
    const lb = luminance(b);
    return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
  };
  /** 3:1 for large text (at least 24 px, or 18.66 px (14 pt) and bold), else 4.5:1. */
  const needed = (fontSizePx: number, fontWeight: number): number => (fontSizePx >= 24 || (fontSizePx >= 18.66 && fontWeight >= 700) ? 3 : 4.5);
  const hex = (c: Rgba): string => `#${[c[0], c[1], c[2]].map((v) => Math.round(v).toString(16).padStart(2, "0")).join("")}`;
  return { luminance, over, ratio, needed, hex };
}

type ContrastMath = ReturnType<typeof contrastMath>;

export interface ContrastReport {
  /** How many visible text elements were measured (a check of nothing passes nothing). */
  readonly checked: number;
  readonly problems: readonly ContrastProblem[];
}

/** Runs in the page: every visible text element's contrast; the failures listed. */
function checkPage(math: ContrastMath): ContrastReport {
  // The browser turns any CSS colour (named, hsl, color-mix) into pixels; read one back.
  const canvas = document.createElement("canvas");
  canvas.width = 1;
  canvas.height = 1;
  const ctx = canvas.getContext("2d", { willReadFrequently: true });
  if (ctx === null) throw new Error("no 2D canvas");
  const cache = new Map<string, Rgba>();
  const rgba = (css: string): Rgba => {
    const known = cache.get(css);
    if (known !== undefined) return known;
    const m = /^rgba?\(\s*([\d.]+)[,\s]+([\d.]+)[,\s]+([\d.]+)(?:\s*[,/]\s*([\d.]+%?))?\s*\)$/.exec(css);
    let value: Rgba;
    if (m !== null) {
      const alpha = m[4] === undefined ? 1 : m[4].endsWith("%") ? Number(m[4].slice(0, -1)) / 100 : Number(m[4]);
      value = [Number(m[1]), Number(m[2]), Number(m[3]), alpha];
    } else {
      ctx.clearRect(0, 0, 1, 1);
      ctx.fillStyle = css;
      ctx.fillRect(0, 0, 1, 1);
      const d = ctx.getImageData(0, 0, 1, 1).data;
      value = [d[0] ?? 0, d[1] ?? 0, d[2] ?? 0, (d[3] ?? 0) / 255];
    }
    cache.set(css, value);
    return value;
  };

  const background = (el: Element): Rgba => {
    const layers: Rgba[] = [];
    for (let node: Element | null = el; node !== null; node = node.parentElement) {
      const bg = rgba(getComputedStyle(node).backgroundColor);
      if (bg[3] > 0) layers.push(bg);
      if (bg[3] >= 1) break;
    }
    // Nothing opaque up to the root: the canvas is white.
    let base: Rgba = [255, 255, 255, 1];
    for (let i = layers.length - 1; i >= 0; i--) base = math.over(layers[i] as Rgba, base);
    return base;
  };
  const opacity = (el: Element): number => {
    let o = 1;
    for (let node: Element | null = el; node !== null; node = node.parentElement) o *= Number(getComputedStyle(node).opacity);
    return o;
  };
  const where = (el: Element): string => {
    const parts: string[] = [];
    for (let node: Element | null = el; node !== null && parts.length < 4 && node !== document.body; node = node.parentElement) {
      const label = node.getAttribute("aria-label");
      const classes = [...node.classList].slice(0, 2).map((c) => `.${c}`).join("");
      parts.unshift(`${node.tagName.toLowerCase()}${classes}${label !== null ? `[aria-label="${label.slice(0, 30)}"]` : ""}`);
    }
    return parts.join(" > ");
  };
  const ownText = (el: Element): string => {
    if (el instanceof HTMLInputElement) return ["text", "search", "url", "email", "number", ""].includes(el.type) ? el.value : "";
    if (el instanceof HTMLTextAreaElement) return el.value;
    if (el instanceof HTMLSelectElement) return el.selectedOptions[0]?.text ?? "";
    if (el instanceof HTMLOptionElement) return "";
    let text = "";
    for (const child of el.childNodes) if (child.nodeType === Node.TEXT_NODE) text += child.textContent ?? "";
    return text.trim();
  };
  const exempt = (el: Element): boolean =>
    el.closest("[aria-hidden='true'], button:disabled, input:disabled, select:disabled, textarea:disabled, fieldset:disabled, [aria-disabled='true']") !== null ||
    // A pulsing dot or a spinner: its colour is a moment of an animation, not a reading surface.
    el.getAnimations().length > 0;

  const problems: ContrastProblem[] = [];
  let checked = 0;
  const modal = document.querySelector("dialog:modal");
  for (const el of (modal ?? document.body).querySelectorAll("*")) {
    const text = ownText(el);
    if (text === "") continue;
    if (!el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) continue;
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;
    if (exempt(el)) continue;
    checked++;
    const style = getComputedStyle(el);
    const bg = background(el);
    const fg = rgba(style.color);
    const seen = math.over([fg[0], fg[1], fg[2], fg[3] * opacity(el)], bg);
    const r = math.ratio(seen, bg);
    const need = math.needed(Number.parseFloat(style.fontSize), Number(style.fontWeight));
    if (r + 1e-9 < need) {
      problems.push({ text: text.replace(/\s+/g, " ").slice(0, 60), where: where(el), color: math.hex(seen), background: math.hex(bg), ratio: Math.round(r * 100) / 100, needed: need });
    }
  }
  return { checked, problems };
}

/** Every visible text in the page measured; those below AA listed (none: it passes). */
export async function textContrast(page: Page): Promise<ContrastReport> {
  // Sent as source: the page has none of this module's imports, and both functions stand alone.
  return page.evaluate(`(${checkPage.toString()})((${contrastMath.toString()})())`) as Promise<ContrastReport>;
}

/** One line per problem, for a failing assertion's message. */
export function describeProblems(problems: readonly ContrastProblem[]): string {
  return problems.map((p) => `${p.ratio}:1 < ${p.needed}:1  ${p.color} on ${p.background}  "${p.text}"  (${p.where})`).join("\n");
}
