// A search's words marked where a block shows them (issue 34): a block that holds a hit of its
// tab's find gives its text these marks through a context (transcript/BlockView.tsx), and every
// VisibleText inside draws the matched parts in <mark> elements, as React nodes of the text itself:
// nothing from a transcript becomes HTML. Markdown, which is HTML already (sanitised), gets its text
// nodes split by DOM calls (markTextNodes), undone before it changes. Words are matched as the index
// matched them (shared/searchQuery.ts): CJK substrings too.
import { createContext, Fragment, useContext, useMemo, type ReactNode } from "react";
import { matchSpans, splitAtSpans, type QueryPhrase } from "../../shared/searchQuery.js";

export interface HitMarks {
  readonly phrases: readonly QueryPhrase[];
  /** The block of the current hit: its marks stand out. */
  readonly current: boolean;
}

const HitMarksContext = createContext<HitMarks | undefined>(undefined);

/** Marks the words of `marks` (none: undefined) in the text drawn inside. */
export function HitMarksScope({ marks, children }: { marks: HitMarks | undefined; children: ReactNode }) {
  return <HitMarksContext.Provider value={marks}>{children}</HitMarksContext.Provider>;
}

export function useHitMarks(): HitMarks | undefined {
  return useContext(HitMarksContext);
}

export const MarkClass = "find-hit";

function markClass(marks: HitMarks): string {
  return marks.current ? `${MarkClass} current` : MarkClass;
}

/** `text` with the matched parts in <mark>; each part drawn by `draw` (VisibleText's own drawing). */
export function MarkedText({ text, marks, draw }: { text: string; marks: HitMarks; draw: (text: string) => ReactNode }) {
  const pieces = useMemo(() => splitAtSpans(text, matchSpans(text, marks.phrases)), [text, marks.phrases]);
  if (pieces.length === 1 && !pieces[0]!.match) return <>{draw(text)}</>;
  return (
    <>
      {pieces.map((p, i) =>
        p.match ? (
          <mark key={i} className={markClass(marks)}>
            {draw(p.text)}
          </mark>
        ) : (
          <Fragment key={i}>{draw(p.text)}</Fragment>
        ),
      )}
    </>
  );
}

/**
 * Splits the text nodes under `root` at the matches of `marks`, each match in a <mark> made with
 * DOM calls (its text set as text, never parsed). Returns what undoes it. For HTML React does not
 * own (a markdown block's sanitised HTML).
 */
export function markTextNodes(root: HTMLElement, marks: HitMarks): () => void {
  const texts: Text[] = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) texts.push(node as Text);
  const made: HTMLElement[] = [];
  for (const node of texts) {
    const text = node.data;
    const spans = matchSpans(text, marks.phrases);
    if (spans.length === 0) continue;
    const parts = document.createDocumentFragment();
    for (const piece of splitAtSpans(text, spans)) {
      if (!piece.match) {
        parts.append(document.createTextNode(piece.text));
        continue;
      }
      const mark = document.createElement("mark");
      mark.className = markClass(marks);
      mark.textContent = piece.text;
      made.push(mark);
      parts.append(mark);
    }
    node.replaceWith(parts);
  }
  return () => {
    const parents = new Set<Node>();
    for (const mark of made) {
      if (mark.parentNode === null) continue;
      parents.add(mark.parentNode);
      mark.replaceWith(document.createTextNode(mark.textContent ?? ""));
    }
    for (const parent of parents) parent.normalize();
  };
}
