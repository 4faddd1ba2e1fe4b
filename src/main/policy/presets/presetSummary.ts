// What the Rules view and `baton policy --list` say of each preset in force (issue 31): the
// commands it may run, the npm twins of its pnpm patterns, what is refused for it whatever its
// commands and why (the presets' refused list, then npm's own rules), where it writes and which
// hosts it reaches. One reading, so the window and the command line say the same.

import type { PresetInfo, RefusalInfo } from "../../../shared/api.js";
import type { CommandPattern, Preset, PresetSet } from "../../../shared/policy.js";
import { NpmRules, npmTwinsShown, runsProgram } from "./npmCommands.js";

/** Alternatives of one word shown before the rest is cut to `…` (npm's install commands have 45). */
const ShownAlternatives = 11;

export function presetInfo(preset: Preset, set: PresetSet): PresetInfo {
  return {
    name: preset.name,
    character: preset.character,
    description: preset.description,
    exec: preset.exec,
    npm: npmTwinsShown(preset.exec).map(shownTwin),
    refused: refusalsOf(set),
    write: preset.write,
    network: preset.network,
  };
}

/** A twin that runs a program says that it must be the project's own. */
function shownTwin(twin: CommandPattern): string {
  if (!runsProgram(twin)) return twin;
  return twin === "npx" || twin === "npm exec" ? `${twin} <a program already in node_modules/.bin>` : `${twin} (already in node_modules/.bin)`;
}

/** What no preset may run, and why: the refused list's patterns (cut to show), then npm's rules that no pattern can say. */
export function refusalsOf(set: PresetSet): readonly RefusalInfo[] {
  return [...set.refused.map((r) => ({ what: shownPattern(r.pattern), pattern: r.pattern, reason: r.reason })), ...NpmRules.map((r) => ({ what: r.what, reason: r.reason }))];
}

/** `npm install|ci|…|i|in|…` with each word's alternatives cut after the first few. */
export function shownPattern(pattern: CommandPattern): string {
  return pattern
    .split(" ")
    .map((word) => {
      const alternatives = word.split("|");
      return alternatives.length <= ShownAlternatives ? word : `${alternatives.slice(0, ShownAlternatives).join("|")}|…`;
    })
    .join(" ");
}
