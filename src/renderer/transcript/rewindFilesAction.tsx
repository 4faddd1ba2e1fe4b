// The prompt action "Rewind files to here" (issue 37): on a prompt of a live tab, it opens the
// rewind dialog (RewindDialog.tsx; promptDialog.tsx says where).
import type { PromptActionEntry } from "./PromptActions.js";
import { PromptUuid } from "./promptUuid.js";
import { openPromptDialog } from "./promptDialog.js";
import { RewindDialog } from "./RewindDialog.js";

export const rewindFilesAction: PromptActionEntry = ({ tabId, block, info }) => {
  // Only a live tab's CLI can rewind; a queued prompt has no checkpoint yet.
  if (info?.kind !== "live" || block.queued === true || !PromptUuid.test(block.id)) return undefined;
  return {
    key: "rewind-files",
    label: "Rewind files to here",
    title: "Put the files Claude changed since this prompt back as they were; shows the diffs first",
    run: () => openRewindDialog(tabId, block.id, block.text ?? ""),
  };
};

function openRewindDialog(tabId: string, promptUuid: string, prompt: string): void {
  openPromptDialog((close) => <RewindDialog tabId={tabId} promptUuid={promptUuid} prompt={prompt} onClose={close} />);
}
