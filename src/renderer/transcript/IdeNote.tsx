// What an IDE had open when a prompt was sent from it (shared/ideContext.ts): a small note above
// the person's words instead of the tagged text the CLI recorded.
import type { IdeNote as Note } from "../../shared/ideContext.js";
import { VisibleText } from "../util/VisibleText.js";

export function IdeNotes({ notes }: { notes: readonly Note[] }) {
  if (notes.length === 0) return null;
  return (
    <div className="ide-notes" aria-label="IDE context">
      {notes.map((note, i) => (
        <div key={i} className="note ide-note">
          <VisibleText text={note.text} />
        </div>
      ))}
    </div>
  );
}
