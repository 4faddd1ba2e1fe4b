// Splits a line holding several JSON values written back to back (`{…}{…}`), which real
// transcripts contain when two writers raced (wild #12). Returns undefined unless every piece parses.

/**
 * The JSON values of one transcript line: the line parsed whole, else its glued pieces (`glued`);
 * undefined when it is neither.
 */
export function parseJsonLine(text: string): { readonly values: unknown[]; readonly glued: boolean } | undefined {
  try {
    return { values: [JSON.parse(text)], glued: false };
  } catch {
    const pieces = splitConcatenatedJson(text);
    return pieces === undefined ? undefined : { values: pieces, glued: true };
  }
}

export function splitConcatenatedJson(text: string): unknown[] | undefined {
  const pieces: string[] = [];
  let depth = 0;
  let inString = false;
  let escaped = false;
  let start = -1;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (escaped) escaped = false;
      else if (ch === 0x5c) escaped = true;
      else if (ch === 0x22) inString = false;
      continue;
    }
    if (ch === 0x22) {
      inString = true;
    } else if (ch === 0x7b || ch === 0x5b) {
      if (depth === 0) start = i;
      depth++;
    } else if (ch === 0x7d || ch === 0x5d) {
      depth--;
      if (depth < 0) return undefined;
      if (depth === 0) {
        pieces.push(text.slice(start, i + 1));
        start = -1;
      }
    } else if (depth === 0 && ch !== 0x20 && ch !== 0x09 && ch !== 0x0d) {
      return undefined;
    }
  }
  if (depth !== 0 || inString || pieces.length < 2) return undefined;
  const values: unknown[] = [];
  for (const piece of pieces) {
    try {
      values.push(JSON.parse(piece));
    } catch {
      return undefined;
    }
  }
  return values;
}
