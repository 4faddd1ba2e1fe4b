// The file changes of one tab (shared/diff/fileChanges.ts) over what the window holds of it: the
// live transcript state, and the full step lists of cards whose older steps the hub dropped
// (state/fullSteps.ts). One walk per state, shared by every card and the Changes view.
import type { TranscriptState } from "../../../shared/delta/index.js";
import { changeOfCall } from "../../../shared/diff/changeDiff.js";
import { fileChanges, type FileChange, type FileChanges, type StepTree } from "../../../shared/diff/fileChanges.js";
import type { ToolCallRecord } from "../../../shared/transcript.js";
import { useApp } from "../../state/appState.js";
import { useFullSteps } from "../../state/fullSteps.js";

type FullTab = ReturnType<typeof useFullSteps.getState>["tabs"][string];

const NoFullSteps = {};
const walks = new WeakMap<TranscriptState, WeakMap<object, FileChanges>>();

/** The tab's changes, walked once per transcript state and full-steps state. */
export function changesOf(transcript: TranscriptState, full: FullTab | undefined): FileChanges {
  let byFull = walks.get(transcript);
  if (byFull === undefined) {
    byFull = new WeakMap();
    walks.set(transcript, byFull);
  }
  const key = full ?? NoFullSteps;
  let changes = byFull.get(key);
  if (changes === undefined) {
    changes = fileChanges(treeOf(transcript, full));
    byFull.set(key, changes);
  }
  return changes;
}

function treeOf(transcript: TranscriptState, full: FullTab | undefined): StepTree {
  return {
    steps: (parentId) => full?.cards[parentId]?.ids ?? transcript.children.get(parentId) ?? full?.children.get(parentId) ?? [],
    block: (id) => transcript.blocksById.get(id) ?? full?.blocks.get(id),
  };
}

/** Every change of the tab, or undefined when it is not open. */
export function useTabChanges(tabId: string | undefined): FileChanges | undefined {
  const transcript = useApp((s) => (tabId === undefined ? undefined : s.tabs[tabId]?.transcript));
  const full = useFullSteps((s) => (tabId === undefined ? undefined : s.tabs[tabId]));
  return transcript === undefined ? undefined : changesOf(transcript, full);
}

/**
 * The change of one call, as its tab's walk sees it (with what its agent knew of the file); the
 * call alone when no tab is named or the walk does not reach it. The same object while nothing it
 * depends on changed, so a card re-renders only for its own change.
 */
export function useCallChange(tabId: string | undefined, call: ToolCallRecord): FileChange {
  const full = useFullSteps((s) => (tabId === undefined ? undefined : s.tabs[tabId]));
  const change = useApp((s) => {
    const transcript = tabId === undefined ? undefined : s.tabs[tabId]?.transcript;
    const found = transcript === undefined ? undefined : changesOf(transcript, full).byToolUseId.get(call.toolUseId);
    return found !== undefined && found.call === call ? found : undefined;
  });
  return change ?? changeOfCall(call);
}
