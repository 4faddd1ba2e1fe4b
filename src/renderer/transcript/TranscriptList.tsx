// The virtualised conversation (TanStack Virtual, like its chat example): rows keyed by stable
// block id and measured as they render; anchored to the bottom while the reader is there, and
// left alone once the reader scrolls up.
import { useVirtualizer, type Virtualizer } from "@tanstack/react-virtual";
import { useEffect, useLayoutEffect, useMemo, useRef } from "react";
import { setExpanded, useApp } from "../store/appStore.js";
import { useChildren } from "../store/selectors.js";
import { buildRows, rowIndexOf, type Row } from "./rows.js";
import { ToolGroup } from "./ToolGroup.js";
import { TopBlock } from "./TopBlock.js";
import { ancestorsOf } from "./ancestors.js";

const BottomSlack = 48;

/**
 * A row's height from its ResizeObserver entry. A row just mounted has none yet: it keeps its
 * last known height (or the estimate) until the observer reports, right after the browser's own
 * layout, instead of forcing a layout from inside React's commit for every new row.
 */
function measureRow(element: Element, entry: ResizeObserverEntry | undefined, instance: Virtualizer<HTMLDivElement, Element>): number {
  const box = entry?.borderBoxSize?.[0];
  if (box !== undefined) return Math.round(box.blockSize);
  const index = instance.indexFromElement(element);
  return instance.itemSizeCache.get(instance.options.getItemKey(index)) ?? instance.options.estimateSize(index);
}

export function TranscriptList({ tabId }: { tabId: string }) {
  const ids = useChildren(tabId, "");
  const rows = useMemo<Row[]>(() => {
    const blocks = useApp.getState().tabs[tabId]?.transcript.blocksById;
    return buildRows(ids, (id) => blocks?.get(id));
  }, [ids, tabId]);
  const scrollRef = useRef<HTMLDivElement>(null);
  const stick = useRef(true);
  const lastTop = useRef(0);

  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 64,
    overscan: 6,
    getItemKey: (index) => rows[index]?.key ?? index,
    measureElement: measureRow,
  });
  // While the view follows the end, the next frame pins it there: a row measured above it must
  // not scroll it meanwhile. A row smaller than its estimate scrolled it up, which read as the
  // reader leaving the end, and a long history opened on a busy machine stayed near its top.
  // Otherwise, what the virtualizer does by default: keep the rows in view where they are.
  virtualizer.shouldAdjustScrollPositionOnItemSizeChange = (item, _delta, instance) => {
    if (stick.current) return false;
    const offset = instance.scrollOffset ?? 0;
    return instance.itemSizeCache.has(item.key) ? item.end <= offset && instance.scrollDirection !== "backward" : item.start < offset;
  };
  const total = virtualizer.getTotalSize();

  // Follow the bottom on the next frame, not in this commit: scrolling needs a layout, and forcing
  // one here would put the browser's layout into React's task instead of the frame's own.
  useLayoutEffect(() => {
    if (!stick.current) return;
    const frame = requestAnimationFrame(() => {
      const el = scrollRef.current;
      if (el !== null && stick.current) el.scrollTop = el.scrollHeight;
    });
    return () => cancelAnimationFrame(frame);
  }, [total, rows.length]);

  useScrollRequests(tabId, rows, (index) => virtualizer.scrollToIndex(index, { align: "start" }), stick);

  const items = virtualizer.getVirtualItems();
  return (
    <div
      className="transcript-scroll"
      ref={scrollRef}
      tabIndex={0}
      aria-label="Conversation"
      onScroll={(e) => {
        // Only a scroll up lets go of the end. A scroll event may be seen after the rows below
        // grew (they are measured as they render), which must not count as leaving the end.
        const el = e.currentTarget;
        const atEnd = el.scrollHeight - el.scrollTop - el.clientHeight < BottomSlack;
        stick.current = atEnd || (stick.current && el.scrollTop >= lastTop.current - 1);
        lastTop.current = el.scrollTop;
      }}
    >
      <div className="transcript-inner" style={{ height: total }}>
        <div className="transcript-rows" style={{ transform: `translateY(${items[0]?.start ?? 0}px)` }}>
          {items.map((item) => {
            const row = rows[item.index]!;
            return (
              <div key={row.key} data-index={item.index} ref={virtualizer.measureElement} className="row">
                {row.kind === "block" ? <TopBlock tabId={tabId} id={row.id} /> : <ToolGroup tabId={tabId} groupKey={row.key} ids={row.ids} />}
              </div>
            );
          })}
        </div>
      </div>
      {rows.length === 0 ? <div className="empty">No messages yet. Type a prompt below.</div> : null}
    </div>
  );
}

/** Hierarchy clicks: open the cards around the block, scroll its row into view, then the block. */
function useScrollRequests(tabId: string, rows: readonly Row[], scrollToIndex: (i: number) => void, stick: React.RefObject<boolean>): void {
  const request = useApp((s) => s.scrollRequest);
  // A request made before this list mounted (another tab) is not this list's to follow.
  const handled = useRef(request?.seq);
  useEffect(() => {
    if (request === undefined || request.seq === handled.current) return;
    handled.current = request.seq;
    const transcript = useApp.getState().tabs[tabId]?.transcript;
    if (transcript === undefined) return;
    const chain = ancestorsOf(transcript, request.blockId);
    if (chain === undefined) return;
    // The cards that hold the block, from the top-level one down; not the block itself.
    for (const id of chain.slice(0, -1)) setExpanded(transcript.blocksById.get(id)?.call?.toolUseId ?? id, true);
    const index = rowIndexOf(rows, chain[0]!);
    const row = rows[index];
    if (row === undefined) return;
    if (row.kind === "group") setExpanded(row.key, true);
    stick.current = false;
    scrollToIndex(index);
    const frame = requestAnimationFrame(() => {
      document.querySelector(`[data-block-id="${CSS.escape(request.blockId)}"]`)?.scrollIntoView({ block: "nearest" });
    });
    return () => cancelAnimationFrame(frame);
    // Only a new request scrolls; row changes alone must not move the reader.
  }, [request?.seq]);
}
