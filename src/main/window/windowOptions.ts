// The main window's options. Every security-relevant preference is spelled out, not left to
// Electron's defaults, so a test can pin them and a future Electron cannot quietly change them.
import type { BrowserWindowConstructorOptions } from "electron";

export interface WindowOptionsInput {
  /** Absolute path of the built preload script (CommonJS: sandboxed preloads cannot be ESM). */
  readonly preloadPath: string;
}

export function createWindowOptions(input: WindowOptionsInput): BrowserWindowConstructorOptions {
  return {
    title: "Baton",
    width: 1440,
    height: 900,
    minWidth: 960,
    minHeight: 600,
    // Shown on `ready-to-show`, so the window never flashes an empty frame.
    show: false,
    backgroundColor: "#1e1e1e",
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
