// The running indicator. Without a GPU its rotation is drawn by the page's main thread, a style
// recalc and a repaint per spinner per step, and a busy session shows twenty of them (cards and
// Hierarchy). So it turns in steps (styles.css), and every spinner is started at the same phase of
// the page's clock: all of them step on the same frame instead of each on its own. (Setting the
// animation's startTime would do it exactly, but reading the animations forces a style recalc.)

/** The `.spinner` animation's duration in styles.css. */
const TurnMs = 1200;

function inPhase(element: HTMLSpanElement | null): void {
  if (element !== null) element.style.animationDelay = `${-(performance.now() % TurnMs)}ms`;
}

export function Spinner() {
  return <span className="spinner" ref={inPhase} />;
}
