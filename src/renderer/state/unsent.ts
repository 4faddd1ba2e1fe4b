// A prompt whose send failed, handed back to its tab's composer. Not kept in the composer's own
// state: while the send was under way the composer may have been drawn anew (a resumed session's
// tab that opens and fails closes again, and the dock redraws the panels beside it), and the
// composer drawn now is the one that must get it back.
import { create } from "zustand";

export interface Unsent {
  readonly text: string;
  readonly images: readonly { readonly mediaType: string; readonly data: string }[];
  /** Why it was not sent, as the composer says it. */
  readonly reason: string;
}

export const useUnsent = create<Readonly<Record<string, Unsent>>>(() => ({}));

export function handBack(tabId: string, unsent: Unsent): void {
  useUnsent.setState((s) => ({ ...s, [tabId]: unsent }));
}

/** The composer took it back. */
export function taken(tabId: string): void {
  useUnsent.setState((s) => Object.fromEntries(Object.entries(s).filter(([id]) => id !== tabId)), true);
}
