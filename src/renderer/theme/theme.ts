// Light, dark, or the system's: the person's choice (kept in localStorage), the theme it stands
// for now (the system's prefers-color-scheme, followed while the window is open), applied as
// <html data-theme="…">. themes.css gives each theme its colours; the rest of the window draws
// with those variables only, so a change of theme is one attribute.
import { useSyncExternalStore } from "react";
import "./themes.css";

export type ThemeChoice = "system" | "light" | "dark";
export type Theme = "light" | "dark";

export const ThemeChoices: readonly ThemeChoice[] = ["system", "light", "dark"];
export const ThemeChoiceLabels: { readonly [C in ThemeChoice]: string } = { system: "System", light: "Light", dark: "Dark" };

const ChoiceKey = "baton.theme";
const DarkQuery = "(prefers-color-scheme: dark)";

/** A stored choice, read back: anything unknown (an older Baton, a hand edit) is "system". */
export function parseThemeChoice(raw: string | null): ThemeChoice {
  return raw === "light" || raw === "dark" ? raw : "system";
}

export function resolveTheme(choice: ThemeChoice, systemDark: boolean): Theme {
  if (choice !== "system") return choice;
  return systemDark ? "dark" : "light";
}

interface ThemeState {
  readonly choice: ThemeChoice;
  readonly theme: Theme;
}

const listeners = new Set<() => void>();
let state: ThemeState = { choice: "system", theme: "dark" };

function systemDark(): boolean {
  return window.matchMedia(DarkQuery).matches;
}

function update(choice: ThemeChoice): void {
  const theme = resolveTheme(choice, systemDark());
  if (choice !== state.choice || theme !== state.theme) {
    state = { choice, theme };
    for (const listener of [...listeners]) listener();
  }
  document.documentElement.dataset["theme"] = theme;
}

function loadChoice(): ThemeChoice {
  try {
    return parseThemeChoice(localStorage.getItem(ChoiceKey));
  } catch {
    return "system"; // storage unavailable: the system decides, every time
  }
}

/**
 * Applies the remembered choice before the first paint and follows the system's scheme from then
 * on (it matters only while the choice is "system"). Returns what stops following.
 */
export function startTheme(): () => void {
  update(loadChoice());
  const media = window.matchMedia(DarkQuery);
  const onSystemChange = (): void => update(state.choice);
  media.addEventListener("change", onSystemChange);
  return () => media.removeEventListener("change", onSystemChange);
}

export function setThemeChoice(choice: ThemeChoice): void {
  try {
    localStorage.setItem(ChoiceKey, choice);
  } catch {
    // Storage full or unavailable: the choice holds until the window closes.
  }
  update(choice);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function snapshot(): ThemeState {
  return state;
}

/** The person's choice and the theme it stands for now, re-rendering on a change of either. */
export function useTheme(): ThemeState {
  return useSyncExternalStore(subscribe, snapshot);
}
