// Renders markdown (see renderMarkdown.ts for why it is safe) and routes link clicks outside the
// app: the page itself never navigates.
import { memo, type MouseEvent } from "react";
import { isAllowedLink, renderMarkdown } from "./renderMarkdown.js";

export function openExternal(href: string): void {
  if (!isAllowedLink(href)) return;
  // Electron's window-open handler sends allowed URLs to the system browser; web mode opens a tab.
  window.open(href, "_blank", "noopener,noreferrer");
}

function onClick(event: MouseEvent<HTMLDivElement>): void {
  const anchor = (event.target as HTMLElement).closest("a");
  if (anchor === null) return;
  event.preventDefault();
  openExternal(anchor.getAttribute("href") ?? "");
}

export const Markdown = memo(function Markdown({ text, className }: { text: string; className?: string }) {
  return <div className={`md ${className ?? ""}`} onClick={onClick} dangerouslySetInnerHTML={{ __html: renderMarkdown(text) }} />;
});
