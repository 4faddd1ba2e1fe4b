// Test double for the browser's Notification, run before the renderer (page.addInitScript): it
// records what Baton asks to show (the permission already given) and lets the test say whether the
// window is hidden, whether it is in front, and move the page's clock forward (a "long" turn).
import type { Page } from "playwright-core";

export interface ShownNote {
  readonly title: string;
  readonly body: string;
}

interface DoubledWindow {
  __notes: ShownNote[];
  __shown: { onclick: (() => void) | null }[];
  __hidden: boolean;
  __inFront: boolean;
  __clockShiftMs: number;
}

/** The init script itself (serialised into the page: it may use nothing from this module). */
export function installNotificationDouble(): void {
  const w = window as unknown as DoubledWindow & { Notification: unknown };
  w.__notes = [];
  w.__shown = [];
  w.__hidden = false;
  w.__inFront = true;
  w.__clockShiftMs = 0;
  class RecordingNotification {
    static permission = "granted";
    static requestPermission(): Promise<string> {
      return Promise.resolve("granted");
    }
    onclick: (() => void) | null = null;
    constructor(title: string, options?: { body?: string }) {
      w.__notes.push({ title, body: options?.body ?? "" });
      w.__shown.push(this);
    }
    close(): void {}
  }
  w.Notification = RecordingNotification;
  Object.defineProperty(document, "hidden", { configurable: true, get: () => w.__hidden });
  Object.defineProperty(document, "visibilityState", { configurable: true, get: () => (w.__hidden ? "hidden" : "visible") });
  // A hidden window is not the focused one either (Baton notifies unless it is shown and focused).
  document.hasFocus = () => w.__inFront && !w.__hidden;
  const realNow = Date.now.bind(Date);
  Date.now = () => realNow() + w.__clockShiftMs;
}

/** What the page was asked to show, oldest first. */
export function shownNotes(page: Page): Promise<ShownNote[]> {
  return page.evaluate(() => (window as unknown as DoubledWindow).__notes);
}

/** Hides or shows the document, as minimising the window would, and tells the page. */
export async function setHidden(page: Page, hidden: boolean): Promise<void> {
  await page.evaluate((h) => {
    (window as unknown as DoubledWindow).__hidden = h;
    document.dispatchEvent(new Event("visibilitychange"));
  }, hidden);
}

/** Puts the window in front of the others (focused) or behind them, still shown. */
export async function setInFront(page: Page, inFront: boolean): Promise<void> {
  await page.evaluate((front) => {
    (window as unknown as DoubledWindow).__inFront = front;
  }, inFront);
}

/** Moves the page's clock forward by `ms` (from its start). */
export async function shiftClock(page: Page, ms: number): Promise<void> {
  await page.evaluate((shift) => {
    (window as unknown as DoubledWindow).__clockShiftMs = shift;
  }, ms);
}

/** Clicks the `index`-th notification shown, as the person would. */
export async function clickNotification(page: Page, index: number): Promise<void> {
  await page.evaluate((i) => (window as unknown as DoubledWindow).__shown[i]?.onclick?.(), index);
}
