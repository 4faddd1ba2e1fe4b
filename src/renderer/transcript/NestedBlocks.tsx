// Blocks inside a subagent card: each one subscribes to its own record by id (or its kept copy,
// once the live window dropped it; see fullSteps.ts). A card whose earlier steps were loaded can
// hold thousands: it draws the newest page and adds older pages on request, so one expanded card
// never puts its whole history in the page at once (a find's hit among older steps draws back to it).
import { memo, useState } from "react";
import { useStepBlock } from "../state/fullSteps.js";
import { stepsToShow, stepWindow, StepPage } from "../util/stepWindow.js";
import { useMustShow } from "./findState.js";
import { BlockView } from "./BlockView.js";

export function NestedBlocks({ tabId, ids }: { tabId: string; ids: readonly string[] }) {
  const [shown, setShown] = useState(StepPage);
  // A find's current hit (or a card around it) among older steps is drawn too (findState.ts).
  const mustShow = useMustShow(tabId);
  const { hidden, visible } = stepWindow(ids, Math.max(shown, stepsToShow(ids, mustShow)));
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
