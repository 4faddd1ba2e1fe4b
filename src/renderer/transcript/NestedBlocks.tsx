// Blocks inside a subagent card: each one subscribes to its own record by id (or its kept copy,
// once the live window dropped it; see fullSteps.ts).
import { memo } from "react";
import { useStepBlock } from "../store/fullSteps.js";
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
  const block = useStepBlock(tabId, id);
  return block === undefined ? null : <BlockView tabId={tabId} block={block} nested />;
});
