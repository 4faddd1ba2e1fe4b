// The running indicator. Without a GPU its rotation is drawn by the page's main thread, a style
// recalc and a repaint per spinner per step, and a busy session shows twenty of them (cards and
// Hierarchy). So it turns in steps (styles.css), and every spinner's animation starts at the
// document timeline's zero: all of them step on the same frames instead of each on its own.

function inPhase(element: HTMLSpanElement | null): void {
  if (element === null || typeof element.getAnimations !== "function") return;
  for (const animation of element.getAnimations()) animation.startTime = 0;
}

export function Spinner() {
  return <span className="spinner" ref={inPhase} />;
}
