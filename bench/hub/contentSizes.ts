// Prints the 20-quantiles (0th, 5th … 95th percentile) of content lengths in a folder of CLI
// transcripts (*.jsonl, searched recursively): each tool_result's content (a string's length, or
// a block list's as JSON), each tool_use input's as JSON, each text block's. generate.ts sizes its
// "real" stream with these figures, taken from the 35 wild transcripts in ../shared/wild.
//
//   node --import tsx bench/hub/contentSizes.ts <folder>

import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

const folder = process.argv[2];
if (folder === undefined) throw new Error("usage: contentSizes.ts <folder of *.jsonl transcripts>");

const sizes = { result: [] as number[], input: [] as number[], text: [] as number[] };

function measureLine(line: string): void {
  let row: unknown;
  try {
    row = JSON.parse(line);
  } catch {
    return; // damaged lines (the wild set has some) are not content
  }
  const content = (row as { message?: { content?: unknown } } | null)?.message?.content;
  if (!Array.isArray(content)) return;
  for (const block of content as { type?: unknown; content?: unknown; input?: unknown; text?: unknown }[]) {
    if (block?.type === "tool_result") sizes.result.push(typeof block.content === "string" ? block.content.length : (JSON.stringify(block.content) ?? "").length);
    else if (block?.type === "tool_use") sizes.input.push((JSON.stringify(block.input) ?? "").length);
    else if (block?.type === "text" && typeof block.text === "string") sizes.text.push(block.text.length);
  }
}

let files = 0;
for (const entry of readdirSync(folder, { recursive: true, encoding: "utf8" })) {
  if (!entry.endsWith(".jsonl")) continue;
  files++;
  for (const line of readFileSync(path.join(folder, entry), "utf8").split("\n")) measureLine(line);
}

console.log(`${files} transcripts`);
for (const [kind, values] of Object.entries(sizes)) {
  const sorted = values.sort((a, b) => a - b);
  const quantiles = Array.from({ length: 20 }, (_, q) => sorted[Math.floor((sorted.length * q) / 20)] ?? 0);
  const mean = sorted.reduce((sum, v) => sum + v, 0) / Math.max(sorted.length, 1);
  console.log(`${kind}: ${sorted.length} values, mean ${mean.toFixed(0)}, 20-quantiles [${quantiles.join(", ")}]`);
}
