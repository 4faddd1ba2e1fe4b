// The history reader over every recorded session of both CLIs (main transcript and each
// subagent's sidechain file), with lines lost, repeated or damaged and files cut off mid-line:
// restoring never fails, lines that are not JSON are reported for the file they are in, and no
// block of a sidechain's line is at the top level; each sits in the card of the Agent call its file
// is linked to whenever the transcript has that card. Seeds: test/support/fuzz/settings.ts.

import { cpSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isHeavyLine } from "../../src/main/history/heavyLines.js";
import { restoreSession, type RestoreResult } from "../../src/main/history/restore.js";
import { historyCaptures, noteSharedRecordings, type HistoryCapture } from "../support/fuzz/corpus.js";
import { corrupt, editLines, lineEdit } from "../support/fuzz/corruption.js";
import { emptyOrigins, expectSubagentBlocksPlaced, noteLine, type SubagentOrigins } from "../support/fuzz/placement.js";
import { fuzzParameters } from "../support/fuzz/settings.js";
import { tempDirs } from "../support/tempDirs.js";

const tempDir = tempDirs("baton-fuzz-history-", "all");
const captures = historyCaptures();
noteSharedRecordings("fuzzHistory");

/** Damage to one of a session's files: line edits, and maybe the file cut off at a byte. */
const fileDamage = fc.record({
  file: fc.nat(),
  edits: fc.array(lineEdit, { maxLength: 6 }),
  cutAt: fc.option(fc.nat(), { nil: undefined }),
});

interface Damaged {
  /** Every file's text as written for this case, by its path in the copy. */
  readonly texts: Map<string, string>;
}

function objectOf(text: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(text) as unknown;
    return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A line the reader must report: not a JSON object once trimmed (trim() takes byte-order marks too),
 * not objects glued together (the reader parts them), and not a line of a type Baton never reads,
 * which it passes over unparsed, by design, whatever follows its first bytes (heavyLines.ts).
 */
function isBadLine(text: string): boolean {
  const trimmed = text.trim();
  return trimmed !== "" && objectOf(trimmed) === undefined && !/\}\s*\{/.test(trimmed) && !isHeavyLine(Buffer.from(text));
}

/** Where the blocks of the files' lines must be: a sidechain's in the card of the call it is linked to. */
function originsOf(result: RestoreResult, mainFile: string, damaged: Damaged): SubagentOrigins {
  const origins = emptyOrigins();
  const linked = new Map([...result.session.links].map(([toolUseId, file]) => [file.path, toolUseId]));
  for (const [file, text] of damaged.texts) {
    // Another session's main file (a resumed session's holds the same lines) is not this one's.
    if (file !== mainFile && !isSidechainFile(file)) continue;
    const parent = file === mainFile ? undefined : (linked.get(file) ?? `(no call: ${path.basename(file)})`);
    for (const line of text.split("\n")) {
      const value = objectOf(line.trim());
      if (value !== undefined) noteLine(origins, value, parent);
    }
  }
  return origins;
}

function isSidechainFile(file: string): boolean {
  return /^agent-.*\.jsonl$/.test(path.basename(file));
}

async function restoreAndCheck(capture: HistoryCapture, tree: string, damaged: Damaged, what: string): Promise<number> {
  let checked = 0;
  for (const original of capture.mainFiles) {
    const main = path.join(tree, path.relative(capture.projectsDir, original));
    const result = await restoreSession(main, { projectsDir: tree, loadSidechains: true });
    checked += expectSubagentBlocksPlaced(result.transcript, originsOf(result, main, damaged), what);
    const read = new Set([main, ...[...result.session.links.values()].map((f) => f.path)]);
    for (const [file, text] of damaged.texts) {
      if (!read.has(file) || !text.split("\n").some(isBadLine)) continue;
      expect(result.problems, `${what}: ${path.relative(tree, file)} has lines that are not JSON`).toContainEqual(
        expect.objectContaining({ kind: "bad_lines", path: file, count: expect.any(Number) }),
      );
    }
  }
  return checked;
}

describe.skipIf(captures.length === 0)("history reader over every recorded session, damaged", () => {
  it.each(captures.map((c) => [c.label, c] as const))("%s", async (label, capture) => {
    const tree = tempDir();
    cpSync(capture.projectsDir, tree, { recursive: true });
    const files = [...capture.mainFiles, ...capture.sidechainFiles].map((f) => path.join(tree, path.relative(capture.projectsDir, f)));
    const originals = new Map(files.map((f) => [f, readFileSync(f, "utf8")]));
    // As recorded: every sidechain block in its card, and the check has blocks to look at when there are subagents.
    const checked = await restoreAndCheck(capture, tree, { texts: originals }, `${label} as recorded`);
    const subagentsAnswered = capture.sidechainFiles.some((f) => readFileSync(f, "utf8").includes('"type":"assistant"'));
    if (subagentsAnswered) expect(checked).toBeGreaterThan(0);
    await fc.assert(
      fc.asyncProperty(fc.array(fileDamage, { minLength: 1, maxLength: 3 }), async (damage) => {
        const texts = new Map(originals);
        for (const { file, edits, cutAt } of damage) {
          const name = files[file % files.length] as string;
          const lines = (texts.get(name) as string).split("\n");
          const ended = lines.at(-1) === "";
          if (ended) lines.pop();
          let text = editLines(lines, edits, corrupt).join("\n") + (ended ? "\n" : "");
          if (cutAt !== undefined) text = Buffer.from(text).subarray(0, cutAt % (Buffer.byteLength(text) + 1)).toString("utf8");
          texts.set(name, text);
        }
        for (const [file, text] of texts) writeFileSync(file, text);
        await restoreAndCheck(capture, tree, { texts }, label);
      }),
      fuzzParameters(12),
    );
  }, 120_000);
});
