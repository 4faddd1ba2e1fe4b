// A scripted turn held until the test has seen what it looks for: the state a person would see
// lasts until the test has checked it, however slow the machine, instead of for a guessed time.

export interface Gate {
  /** Resolves once `open()` was called; give it to a turn's `waitFor`. */
  readonly opened: Promise<void>;
  open(): void;
}

export function gate(): Gate {
  let open = (): void => undefined;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}
