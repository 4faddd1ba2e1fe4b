// The virtualised conversation (TanStack Virtual, like its chat example): rows keyed by stable
// block id and measured as they render; anchored to the bottom while the reader is there, and
// left alone once the reader scrolls up.
import { useVirtualizer } from "@tanstack/react-virtual";
import { useEffect, useLayoutEffect, useMemo, useRef } from "react";
import { setExpanded, useApp } from "../store/appStore.js";
import { useChildren } from "../store/selectors.js";
import { buildRows, rowIndexOf, type Row } from "./rows.js";
import { ToolGroup } from "./ToolGroup.js";
import { TopBlock } from "./TopBlock.js";
import { ancestorsOf } from "./ancestors.js";

const BottomSlack = 48;

export function TranscriptList({ tabId }: { tabId: string }) {
  const ids = useChildren(tabId, "");
  const rows = useMemo<Row[]>(() => {
    const blocks = useApp.getState().tabs[tabId]?.transcript.blocksById;
    return buildRows(ids, (id) => blocks?.get(id));
  }, [ids, tabId]);
  const scrollRef = useRef<HTMLDivElement>(null);
  const stick = useRef(true);

  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 64,
    overscan: 6,
    getItemKey: (index) => rows[index]?.key ?? index,
  });
  const total = virtualizer.getTotalSize();

  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (el !== null && stick.current) el.scrollTop = el.scrollHeight;
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
        const el = e.currentTarget;
        stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < BottomSlack;
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
    for (const id of chain.slice(1)) setExpanded(transcript.blocksById.get(id)?.call?.toolUseId ?? id, true);
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
