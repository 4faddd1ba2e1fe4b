// Text from a transcript, drawn so that nothing in it is hidden: bidi controls and zero-width
// characters (see shared/hiddenCharacters.ts) become small marked `⟨U+202E⟩` spans in place, so
// the DOM keeps the text in logical order and no override can reorder what follows. Used for
// every string a person decides from: prompts, commands, paths, titles, search results. Inside a
// block that holds a search hit, the words searched for are marked too (HitMarks.tsx).
import { describeHiddenRun, hasHidden, hiddenKinds, hiddenRunLabel, markHidden, splitHidden } from "../../shared/hiddenCharacters.js";
import { MarkedText, useHitMarks } from "./HitMarks.js";

// A pathological text (a megabyte alternating letters and zero-width spaces) would mount a span
// per character; past this many markers the text is drawn as one string with textual markers.
const MaxMarkers = 500;

export function VisibleText({ text }: { text: string }) {
  // Inside a block with a search hit, the hit's words are marked (HitMarks.tsx).
  const marks = useHitMarks();
  return marks === undefined ? drawVisible(text) : <MarkedText text={text} marks={marks} draw={drawVisible} />;
}

function drawVisible(text: string) {
  if (!hasHidden(text)) return <>{text}</>;
  const pieces = splitHidden(text);
  if (pieces.length > MaxMarkers * 2) return <>{markHidden(text)}</>;
  return (
    <>
      {pieces.map((p, i) =>
        p.kind === "text" ? (
          p.text
        ) : (
          <span key={i} className={`hidden-char ${p.hiddenKind}`} data-hidden={p.hiddenKind} title={describeHiddenRun(p.chars)}>
            {`⟨${hiddenRunLabel(p.chars)}⟩`}
          </span>
        ),
      )}
    </>
  );
}

/**
 * The plain warning a permission prompt carries when what it asks about holds hidden characters:
 * the person should read the markers before allowing.
 */
export function HiddenTextWarning({ texts }: { texts: readonly string[] }) {
  let direction = false;
  let invisible = false;
  for (const t of texts) {
    const kinds = hiddenKinds(t);
    direction ||= kinds.direction;
    invisible ||= kinds.invisible;
  }
  if (!direction && !invisible) return null;
  const what = [direction ? "hidden direction characters" : "", invisible ? "invisible characters" : ""].filter((w) => w !== "").join(" and ");
  return (
    <div className="hidden-warning" role="alert">
      ⚠ This request contains {what}, shown as ⟨U+…⟩ markers. Read it as marked before you allow it.
    </div>
  );
}

/** For `title` attributes and other places that take a plain string. */
export { markHidden as visibleString };
