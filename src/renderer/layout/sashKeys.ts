// dockview's sashes (the handles between docks) take only a pointer. This makes each one a
// separator a keyboard and a screen reader can use: focusable, named for the dock it resizes
// ("Resize Inspector": the dock beside the sessions, else both), its value that dock's size, and
// the arrow keys moving it by 16 px, through the same pointer events a drag sends.

const Step = 16;

function frontTitles(view: Element): string {
  const titles = [...view.querySelectorAll(".dv-groupview")].map((g) => g.querySelector(".dv-tab.dv-active-tab")?.getAttribute("aria-label") ?? "").filter((t) => t !== "");
  return titles.join(" and ");
}

function holdsSessions(view: Element): boolean {
  return view.querySelector("[role=tablist][aria-label=Sessions]") !== null;
}

/** The views on either side of a sash, and whether they lie side by side. */
function around(sash: HTMLElement): { before: HTMLElement; after: HTMLElement; sideBySide: boolean } | undefined {
  const split = sash.parentElement?.parentElement;
  const views = split?.querySelector(":scope > .dv-view-container")?.children;
  const index = [...(sash.parentElement?.children ?? [])].indexOf(sash);
  const before = views?.[index] as HTMLElement | undefined;
  const after = views?.[index + 1] as HTMLElement | undefined;
  if (split === null || split === undefined || before === undefined || after === undefined) return undefined;
  return { before, after, sideBySide: split.classList.contains("dv-horizontal") };
}

function describe(sash: HTMLElement): void {
  const sides = around(sash);
  if (sides === undefined) return;
  const { before, after, sideBySide } = sides;
  const resized = holdsSessions(before) ? after : before;
  const name = holdsSessions(before) || holdsSessions(after) ? frontTitles(resized) : `${frontTitles(before)} | ${frontTitles(after)}`;
  sash.setAttribute("aria-label", `Resize ${name}`);
  const box = resized.getBoundingClientRect();
  sash.setAttribute("aria-valuenow", String(Math.round(sideBySide ? box.width : box.height)));
}

function move(sash: HTMLElement, delta: number, sideBySide: boolean): void {
  const box = sash.getBoundingClientRect();
  const x = box.left + box.width / 2;
  const y = box.top + box.height / 2;
  const at = (d: number) => ({ clientX: sideBySide ? x + d : x, clientY: sideBySide ? y : y + d, bubbles: true, button: 0, isPrimary: true, pointerId: 1 });
  sash.dispatchEvent(new PointerEvent("pointerdown", at(0)));
  sash.ownerDocument.dispatchEvent(new PointerEvent("pointermove", at(delta)));
  sash.ownerDocument.dispatchEvent(new PointerEvent("pointerup", at(delta)));
}

function onKey(event: KeyboardEvent): void {
  const sash = event.currentTarget as HTMLElement;
  const sides = around(sash);
  if (sides === undefined) return;
  const keys = sides.sideBySide ? ["ArrowLeft", "ArrowRight"] : ["ArrowUp", "ArrowDown"];
  const i = keys.indexOf(event.key);
  if (i < 0) return;
  event.preventDefault();
  move(sash, i === 0 ? -Step : Step, sides.sideBySide);
  describe(sash);
}

/** Makes every sash under `root` a keyboard separator and names it; call again after a layout change. */
export function labelSashes(root: HTMLElement): void {
  for (const sash of root.querySelectorAll<HTMLElement>(".dv-sash")) {
    const sides = around(sash);
    if (sides === undefined) continue;
    if (sash.getAttribute("role") !== "separator") {
      sash.setAttribute("role", "separator");
      sash.addEventListener("keydown", onKey);
    }
    // A sash that cannot move (a hidden dock beside it) is no stop for the keyboard.
    const fixed = sash.classList.contains("dv-disabled");
    sash.tabIndex = fixed ? -1 : 0;
    if (fixed) sash.setAttribute("aria-hidden", "true");
    else sash.removeAttribute("aria-hidden");
    // A separator between docks side by side is a vertical line.
    sash.setAttribute("aria-orientation", sides.sideBySide ? "vertical" : "horizontal");
    describe(sash);
  }
}
