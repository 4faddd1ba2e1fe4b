// One block of any kind, top level or nested.
import { memo } from "react";
import type { Block } from "../../shared/transcript.js";
import { Markdown } from "../markdown/Markdown.js";
import { CommandEcho } from "./CommandEcho.js";
import { parseCommandEcho } from "../../shared/commandEcho.js";
import { splitIdeContext } from "../../shared/ideContext.js";
import { IdeNotes } from "./IdeNote.js";
import { SubagentCard } from "./SubagentCard.js";
import { ToolCard } from "./ToolCard.js";
import { VisibleText } from "../util/VisibleText.js";
import { HitMarksScope } from "../util/HitMarks.js";
import { useBlockMarks } from "./findState.js";
import { PromptActions } from "./PromptActions.js";
import { rewoundMarkText } from "../../shared/fileRewind.js";

export const BlockView = memo(function BlockView({ tabId, block, nested }: { tabId: string; block: Block; nested: boolean }) {
  // A block with a hit of its tab's find marks the words (a nested block sets its own, none by default).
  const marks = useBlockMarks(tabId, block.id);
  return (
    <HitMarksScope marks={marks}>
      <BlockBody tabId={tabId} block={block} nested={nested} />
    </HitMarksScope>
  );
});

function BlockBody({ tabId, block, nested }: { tabId: string; block: Block; nested: boolean }) {
  switch (block.kind) {
    case "user": {
      const echo = parseCommandEcho(block.text);
      if (echo !== undefined && (block.images?.length ?? 0) === 0) return <CommandEcho id={block.id} parts={echo} />;
      const ide = splitIdeContext(block.text ?? "");
      return (
        <div className="user-prompt" aria-label="Prompt" data-block-id={block.id}>
          <div className="who">You{block.queued === true ? <span className="chip" aria-label="Queued"> queued</span> : null}</div>
          <IdeNotes notes={ide.notes} />
          <div className="user-text"><VisibleText text={ide.words} /></div>
          {block.images?.map((img, i) => (
            <img key={i} className="thumb" alt="attached" src={`data:${img.mediaType};base64,${img.data}`} />
          ))}
          {block.rewound !== undefined ? (
            <div className="prompt-rewound" role="note" title={`At ${block.rewound.at}`}>
              {rewoundMarkText(block.rewound.files)}
            </div>
          ) : null}
          {nested ? null : <PromptActions tabId={tabId} block={block} />}
        </div>
      );
    }
    case "text":
      return (
        <div className={`assistant ${block.streaming === true ? "streaming" : ""}`} data-block-id={block.id}>
          <Markdown text={block.text ?? ""} />
        </div>
      );
    case "thinking":
      return (
        <details className="thinking" data-block-id={block.id}>
          <summary>Thinking{block.streaming === true ? "…" : ""}</summary>
          <div className="thinking-text"><VisibleText text={block.text ?? ""} /></div>
        </details>
      );
    case "notice":
      return (
        <div className={`notice ${block.level ?? "info"}`} role={block.level === "error" ? "alert" : "note"} data-block-id={block.id}>
          <VisibleText text={block.text ?? ""} />
        </div>
      );
    case "tool":
      if (block.call === undefined) return null;
      return block.call.subagent !== undefined ? <SubagentCard tabId={tabId} block={block} /> : <ToolCard tabId={tabId} block={block} nested={nested} />;
  }
}
