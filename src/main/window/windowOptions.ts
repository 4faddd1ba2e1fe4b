// The main window's options. Every security-relevant preference is spelled out, not left to
// Electron's defaults, so a test can pin them and a future Electron cannot quietly change them.
import type { BrowserWindowConstructorOptions } from "electron";

export interface WindowOptionsInput {
  /** Absolute path of the built preload script (CommonJS: sandboxed preloads cannot be ESM). */
  readonly preloadPath: string;
  /** The system uses a dark scheme (nativeTheme): the frame's colour before the page draws. */
  readonly dark?: boolean;
}

/** The themes' window colour (--bg in src/renderer/theme/themes.css). */
const FrameColour = { dark: "#191919", light: "#cfcfcf" } as const;

export function createWindowOptions(input: WindowOptionsInput): BrowserWindowConstructorOptions {
  return {
    title: "Baton",
    width: 1440,
    height: 900,
    minWidth: 960,
    minHeight: 600,
    // Shown on `ready-to-show`, so the window never flashes an empty frame.
    show: false,
    // The system's scheme, which the default theme (System) follows; the page sets its own at once.
    backgroundColor: input.dark === false ? FrameColour.light : FrameColour.dark,
    webPreferences: {
      preload: input.preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      experimentalFeatures: false,
      navigateOnDragDrop: false,
      safeDialogs: true,
      spellcheck: false,
      // No auxclick events: a middle click on a link must not be a way around the navigation and
      // new-window handlers (Electronegativity AUXCLICK_JS_CHECK).
      disableBlinkFeatures: "Auxclick",
    },
  };
}
