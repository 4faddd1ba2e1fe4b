// Web-first assertions on playwright-core locators, built on vitest's expect.poll: each waits for
// the state (default 10 s) instead of sleeping.
import { expect } from "vitest";
import type { Locator } from "playwright-core";

interface Options {
  readonly timeout?: number;
}

const DefaultTimeout = 10_000;

async function text(locator: Locator): Promise<string> {
  return (await locator.count()) === 0 ? "" : ((await locator.first().textContent({ timeout: 1000 }).catch(() => "")) ?? "");
}

function assertions(locator: Locator, negate: boolean) {
  const poll = <T>(fn: () => Promise<T>, o?: Options) => {
    const p = expect.poll(fn, { timeout: o?.timeout ?? DefaultTimeout, interval: 100 });
    return negate ? p.not : p;
  };
  return {
    toHaveAttribute: (name: string, value: string, o?: Options) =>
      poll(() => locator.first().getAttribute(name, { timeout: 1000 }).catch(() => null), o).toBe(value),
    toContainText: (value: string, o?: Options) => poll(() => text(locator), o).toContain(value),
    toHaveText: (value: string, o?: Options) => poll(async () => (await text(locator)).trim(), o).toBe(value),
    toHaveCount: (n: number, o?: Options) => poll(() => locator.count(), o).toBe(n),
    toBeVisible: (o?: Options) => poll(() => locator.first().isVisible().catch(() => false), o).toBe(true),
    toBeFocused: (o?: Options) =>
      poll(() => locator.first().evaluate((el) => el === document.activeElement, undefined, { timeout: 1000 }).catch(() => false), o).toBe(true),
  };
}

export function expectLocator(locator: Locator) {
  return { ...assertions(locator, false), not: assertions(locator, true) };
}
