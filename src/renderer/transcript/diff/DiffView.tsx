// A diff as rows: old and new line numbers, the marker, the line with its changed words marked
// (shared/diff builds the rows). Long diffs show their first rows and the rest on request. Every
// text is a transcript's, drawn through VisibleText.
import { memo, useMemo, useState } from "react";
import { hunkHeader, type DiffRow, type FileDiffView, type PatchHunk } from "../../../shared/diff/diffModel.js";
import { hunkRows, viewOf } from "../../../shared/diff/diffRows.js";
import { VisibleText } from "../../util/VisibleText.js";
import "./diff.css";

/** Rows drawn before "Show all": a card stays light however large the change. */
const FirstRows = 400;

const RowClass: Record<DiffRow["kind"], string> = { added: "add", removed: "del", context: "ctx", note: "note" };
const Marker: Record<DiffRow["kind"], string> = { added: "+", removed: "-", context: " ", note: "" };

export const DiffView = memo(function DiffView({ view, label = "Diff" }: { view: FileDiffView; label?: string }) {
  const [all, setAll] = useState(false);
  const total = view.hunks.reduce((n, h) => n + h.rows.length, 0);
  let budget = all ? Infinity : FirstRows;
  return (
    <div className="diff-block" data-source={view.source}>
      <DiffNote view={view} />
      {view.hunks.length > 0 ? (
        <div className="diff" aria-label={label}>
          {view.hunks.map((h, i) => {
            if (budget <= 0) return null;
            const rows = h.rows.slice(0, budget);
            budget -= rows.length;
            return (
              <div key={i} className="hunk">
                <div className="hunk-head">{hunkHeader(h)}</div>
                {rows.map((row, j) => <Row key={j} row={row} />)}
              </div>
            );
          })}
        </div>
      ) : null}
      {!all && total > FirstRows ? (
        <button className="link-btn diff-more" onClick={() => setAll(true)}>Show all {total} lines</button>
      ) : null}
      {view.hiddenRows !== undefined && view.hiddenRows > 0 && (all || total <= FirstRows) ? <div className="diff-note">{view.hiddenRows} more lines not shown</div> : null}
    </div>
  );
});

function Row({ row }: { row: DiffRow }) {
  return (
    <div className={`dl ${RowClass[row.kind]}`} {...(row.oldLine !== undefined ? { "data-old-line": row.oldLine } : {})} {...(row.newLine !== undefined ? { "data-new-line": row.newLine } : {})}>
      <span className="ln" aria-hidden="true">{row.oldLine ?? ""}</span>
      <span className="ln" aria-hidden="true">{row.newLine ?? ""}</span>
      <span className="mk" aria-hidden="true">{Marker[row.kind]}</span>
      <span className="tx">
        {row.segments !== undefined
          ? row.segments.map((s, i) => (s.changed ? <span key={i} className="wd"><VisibleText text={s.text} /></span> : <VisibleText key={i} text={s.text} />))
          : <VisibleText text={row.text} />}
        {row.eolChanged === true ? <span className="eol" title="The line ending changed">{row.cr === true ? "CRLF" : "LF"}</span> : null}
      </span>
    </div>
  );
}

/** What a person should know about where the diff came from, with its size. */
function DiffNote({ view }: { view: FileDiffView }) {
  const stats = (
    <span className="diff-stats" aria-label="Lines changed">
      <span className="plus">+{view.added}</span> <span className="minus">−{view.removed}</span>
    </span>
  );
  switch (view.source) {
    case "too-large":
      return <div className="diff-note" role="note">Diff too large to show ({view.tooLarge?.oldLines ?? 0} lines before, {view.tooLarge?.newLines ?? 0} after).</div>;
    case "new-file":
      return <div className="diff-note"><span className="chip">new file</span>{stats}</div>;
    case "written":
      return <div className="diff-note"><span className="chip">file replaced</span>{stats} its earlier content is not in the transcript</div>;
    case "snippet":
      return <div className="diff-note" title="The file's content before this edit is not in the transcript, or the edit does not apply to it">{stats} the edit's own text, line numbers unknown</div>;
    case "computed":
      return <div className="diff-note" title="Computed against the file as the transcript last showed it">{stats}</div>;
    case "patch":
      return view.hunks.length === 0 ? <div className="diff-note">No changes.</div> : <div className="diff-note">{stats}</div>;
  }
}

/** Hunks of diff text (`git diff`, parsed by shared/unifiedDiff.ts) in the same view. */
export function PatchDiff({ hunks }: { hunks: readonly PatchHunk[] }) {
  const view = useMemo(() => viewOf("patch", hunkRows(hunks, { numbered: true, fromText: true })), [hunks]);
  return <DiffView view={view} />;
}
