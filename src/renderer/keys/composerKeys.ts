// The composer's keys (transcript/Composer.tsx, its onKeyDown), for the shortcuts sheet.
import type { KeyHelpSection } from "./keyHelp.js";

export const ComposerKeys: KeyHelpSection = {
  where: "Composer",
  keys: [
    { keys: ["Enter"], does: "Send the prompt" },
    { keys: ["Shift+Enter"], does: "New line" },
    { keys: ["ArrowUp"], does: "An earlier prompt (in an empty composer)" },
    { keys: ["Tab"], does: "Complete a slash command" },
    { keys: ["Escape"], does: "Interrupt the session" },
  ],
};
