// Blocks inside a subagent card: each one subscribes to its own record by id.
import { memo } from "react";
import { useBlock } from "../store/selectors.js";
import { BlockView } from "./BlockView.js";

export function NestedBlocks({ tabId, ids }: { tabId: string; ids: readonly string[] }) {
  return (
    <>
      {ids.map((id) => (
        <NestedBlock key={id} tabId={tabId} id={id} />
      ))}
    </>
  );
}

const NestedBlock = memo(function NestedBlock({ tabId, id }: { tabId: string; id: string }) {
  const block = useBlock(tabId, id);
  return block === undefined ? null : <BlockView tabId={tabId} block={block} nested />;
});
