// The virtualised conversation (TanStack Virtual, like its chat example): rows keyed by stable
// block id and measured as they render; anchored to its end, it follows new rows and growing ones
// while the reader is at the bottom, and leaves the rows they read in place once they scroll up.
import { useVirtualizer, type Virtualizer } from "@tanstack/react-virtual";
import { useEffect, useLayoutEffect, useMemo, useRef, type RefObject } from "react";
import { setExpanded, useApp } from "../state/appState.js";
import { useChildren } from "../state/selectors.js";
import { keepSpot, spotOf, type ScrollSpot } from "../state/scrollMemory.js";
import { buildRows, rowIndexOf, type Row } from "./rows.js";
import { ToolGroup } from "./ToolGroup.js";
import { TopBlock } from "./TopBlock.js";
import { ancestorsOf } from "./ancestors.js";
import { FindBar } from "./FindBar.js";

/** How near the end (px) still counts as reading it: the list follows only from there. */
const BottomSlack = 48;

/** How many frames a restored reading place may take to hold while rows are measured. */
const MaxSettleFrames = 30;

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

  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 64,
    overscan: 6,
    getItemKey: (index) => rows[index]?.key ?? index,
    measureElement: measureRow,
    // At the end, a row measured or grown anywhere keeps the view at the end, and a row added
    // below scrolls to it; further up, the rows in view stay where they are.
    anchorTo: "end",
    followOnAppend: true,
    scrollEndThreshold: BottomSlack,
  });

  // A conversation opened with rows already in it (a restored session, a tab shown again) starts
  // at its end; an empty one gets there by following its first rows.
  useLayoutEffect(() => {
    if (virtualizer.options.count > 0) virtualizer.scrollToEnd();
  }, [virtualizer]);

  useScrollMemory(tabId, rows, virtualizer, scrollRef);

  useScrollRequests(tabId, rows, (index) => virtualizer.scrollToIndex(index, { align: "start" }));

  const items = virtualizer.getVirtualItems();
  return (
    <>
      <FindBar tabId={tabId} />
      <div
        className="transcript-scroll"
        ref={scrollRef}
        tabIndex={0}
        aria-label="Conversation"
        data-transcript-tab={tabId}
        onScroll={() => keepSpot(tabId, spotInView(scrollRef.current, rows, virtualizer))}
      >
        <div className="transcript-inner" style={{ height: virtualizer.getTotalSize() }}>
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
    </>
  );
}

/** The row at the top of the view and how far into it, or undefined while the reader is at the end. */
function spotInView(element: HTMLDivElement | null, rows: readonly Row[], virtualizer: Virtualizer<HTMLDivElement, Element>): ScrollSpot | undefined {
  if (element === null || element.scrollHeight - element.scrollTop - element.clientHeight <= BottomSlack) return undefined;
  const top = element.scrollTop;
  const item = virtualizer.getVirtualItems().find((i) => i.end > top);
  const row = item !== undefined ? rows[item.index] : undefined;
  return item === undefined || row === undefined ? undefined : { row: row.key, offset: Math.max(0, top - item.start) };
}

/**
 * After a reload, the conversation goes back to where the reader left it (scrollMemory.ts), once
 * its rows have arrived and hold that row; until then, and for a tab read at its end, it follows
 * the end as usual.
 */
function useScrollMemory(tabId: string, rows: readonly Row[], virtualizer: Virtualizer<HTMLDivElement, Element>, scrollRef: RefObject<HTMLDivElement | null>): void {
  const pending = useRef(spotOf(tabId));
  useEffect(() => {
    const spot = pending.current;
    if (spot === undefined) return;
    const index = rows.findIndex((r) => r.key === spot.row);
    if (index < 0) return;
    pending.current = undefined;
    virtualizer.scrollToIndex(index, { align: "start" });
    // The same distance into that row, set again each frame while the rows drawn around it are
    // measured and move it (a few frames), until it holds.
    let frame = 0;
    let steady = 0;
    const settle = (left: number): void => {
      const start = virtualizer.measurementsCache[index]?.start;
      const element = scrollRef.current;
      if (start === undefined || element === null || left === 0) return;
      const want = start + spot.offset;
      steady = Math.abs(element.scrollTop - want) <= 1 ? steady + 1 : 0;
      if (steady === 0) element.scrollTop = want;
      if (steady < 3) frame = requestAnimationFrame(() => settle(left - 1));
    };
    frame = requestAnimationFrame(() => settle(MaxSettleFrames));
    return () => cancelAnimationFrame(frame);
  }, [rows, virtualizer, scrollRef]);
}

/**
 * Hierarchy clicks and find's hits: open the cards around the block, scroll its row into view, then
 * the block. A find names the cards (its block may be a kept copy the tree does not hold).
 */
function useScrollRequests(tabId: string, rows: readonly Row[], scrollToIndex: (i: number) => void): void {
  const request = useApp((s) => s.scrollRequest);
  // A request made before this list mounted (another tab) is not this list's to follow.
  const handled = useRef(request?.seq);
  useEffect(() => {
    if (request === undefined || request.seq === handled.current) return;
    handled.current = request.seq;
    const transcript = useApp.getState().tabs[tabId]?.transcript;
    if (transcript === undefined) return;
    const chain = request.path !== undefined ? [...request.path, request.blockId] : ancestorsOf(transcript, request.blockId);
    if (chain === undefined) return;
    // The cards that hold the block, from the top-level one down; not the block itself.
    for (const id of chain.slice(0, -1)) setExpanded(transcript.blocksById.get(id)?.call?.toolUseId ?? id, true);
    const index = rowIndexOf(rows, chain[0]!);
    const row = rows[index];
    if (row === undefined) return;
    if (row.kind === "group") setExpanded(row.key, true);
    scrollToIndex(index);
    const frame = requestAnimationFrame(() => {
      document.querySelector(`[data-block-id="${CSS.escape(request.blockId)}"]`)?.scrollIntoView({ block: "nearest" });
    });
    return () => cancelAnimationFrame(frame);
    // Only a new request scrolls; row changes alone must not move the reader.
  }, [request?.seq]);
}
