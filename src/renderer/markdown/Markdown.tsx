// Renders markdown (see src/shared/markdown/renderMarkdown.ts for why it is safe) and routes link clicks outside the
// app: the page itself never navigates.
import { memo, useLayoutEffect, useMemo, useRef, type MouseEvent } from "react";
import { markTextNodes, useHitMarks } from "../util/HitMarks.js";
import { isAllowedExternalUrl } from "../../shared/linkPolicy.js";
import { renderMarkdown } from "../../shared/markdown/renderMarkdown.js";

/**
 * Opens a link outside Baton if the shared link policy allows it; anything else does nothing.
 * Electron's window-open handler checks again and sends it to the system browser; web mode opens
 * a tab that gets neither `window.opener` nor a Referer.
 */
export function openExternal(href: string): void {
  if (!isAllowedExternalUrl(href)) return;
  window.open(href, "_blank", "noopener,noreferrer");
}

// Middle clicks too (auxclick): the browser would otherwise open the href itself.
function onClick(event: MouseEvent<HTMLDivElement>): void {
  const anchor = (event.target as HTMLElement).closest("a");
  if (anchor === null) return;
  event.preventDefault();
  if (event.button === 0 || event.button === 1) openExternal(anchor.getAttribute("href") ?? "");
}

export const Markdown = memo(function Markdown({ text, className }: { text: string; className?: string }) {
  const html = useMemo(() => renderMarkdown(text), [text]);
  const ref = useRef<HTMLDivElement>(null);
  // A search hit's words, marked in the rendered text (HitMarks.tsx); undone before the HTML changes.
  const marks = useHitMarks();
  useLayoutEffect(() => (marks === undefined || ref.current === null ? undefined : markTextNodes(ref.current, marks)), [html, marks]);
  return <div ref={ref} className={`md ${className ?? ""}`} onClick={onClick} onAuxClick={onClick} dangerouslySetInnerHTML={{ __html: html }} />;
});
