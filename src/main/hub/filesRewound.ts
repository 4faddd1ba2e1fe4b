// `files_rewound` (Baton's own event, core/fileRewind.ts): the files were rewound to just before a
// prompt. The prompt's block keeps the mark ("Files rewound to here"), the latest rewind's, so the
// transcript shows where the files now stand.

import type { FilesRewoundEvent } from "../../shared/events.js";
import { knownBlock, replaceBlock } from "./edits.js";
import type { SessionModel } from "./session.js";
import { makeBlock } from "./shapes.js";

export function onFilesRewound(s: SessionModel, ev: FilesRewoundEvent): void {
  const node = knownBlock(s, ev.promptUuid, undefined);
  if (node === undefined || node === "dropped" || node.block?.kind !== "user") return;
  replaceBlock(s, node, makeBlock({ ...node.block, rewound: { files: ev.files, at: ev.timestamp } }));
}
