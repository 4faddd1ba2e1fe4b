// `command_lifecycle` (CLI 2.1.332+): a prompt Baton sent with a uuid was queued behind a running
// turn, started, or completed. The prompt's block (its id is that uuid) shows "queued" until the
// CLI starts it, so a person sees that it was not dropped and has not been read yet.

import type { CommandLifecycleEvent } from "../../shared/events.js";
import { replaceBlock } from "./edits.js";
import type { SessionModel } from "./session.js";
import { makeBlock } from "./shapes.js";

export function onCommandLifecycle(s: SessionModel, ev: CommandLifecycleEvent): void {
  const top = s.tree.top;
  const node = top.at(top.index.get(ev.commandUuid));
  if (node === undefined || node === "dropped" || node.block?.kind !== "user") return;
  const queued = ev.state === "queued";
  if ((node.block.queued === true) === queued) return;
  replaceBlock(s, node, makeBlock({ ...node.block, queued: queued ? true : undefined }));
}
