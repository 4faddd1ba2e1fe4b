// Blocks inside a subagent card: each one subscribes to its own record by id (or its kept copy,
// once the live window dropped it; see fullSteps.ts). A card whose earlier steps were loaded can
// hold thousands: it draws the newest page and adds older pages on request, so one expanded card
// never puts its whole history in the page at once.
import { memo, useState } from "react";
import { useStepBlock } from "../state/fullSteps.js";
import { stepWindow, StepPage } from "../util/stepWindow.js";
import { BlockView } from "./BlockView.js";

export function NestedBlocks({ tabId, ids }: { tabId: string; ids: readonly string[] }) {
  const [shown, setShown] = useState(StepPage);
  const { hidden, visible } = stepWindow(ids, shown);
  return (
    <>
      {hidden > 0 ? (
        <div className="note">
          <button className="link-btn" onClick={() => setShown((n) => n + StepPage)}>
            Show {Math.min(StepPage, hidden)} more of {hidden} earlier {hidden === 1 ? "step" : "steps"}
          </button>
        </div>
      ) : null}
      {visible.map((id) => (
        <NestedBlock key={id} tabId={tabId} id={id} />
      ))}
    </>
  );
}

const NestedBlock = memo(function NestedBlock({ tabId, id }: { tabId: string; id: string }) {
  const block = useStepBlock(tabId, id);
  return block === undefined ? null : <BlockView tabId={tabId} block={block} nested />;
});
