import { memo } from "react";
import { useBlock } from "../state/selectors.js";
import { BlockView } from "./BlockView.js";

/** A top-level block, subscribed to its own record by id. */
export const TopBlock = memo(function TopBlock({ tabId, id }: { tabId: string; id: string }) {
  const block = useBlock(tabId, id);
  return block === undefined ? null : <BlockView tabId={tabId} block={block} nested={false} />;
});
