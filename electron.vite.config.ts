// `npm run build` / `npm start`: main (ESM, Node target), preload (CommonJS: Electron loads a
// sandboxed preload as a classic script) and the React renderer. The store's worker threads and
// the OS sandbox's host process are entries of their own so the bundle has a file to start them
// from (out/main/storeWorker.js, out/main/extractWorker.js, out/main/sandboxHost.js), next to
// index.js where their callers look for them.
import react from "@vitejs/plugin-react";
import { defineConfig } from "electron-vite";
import { resolve } from "node:path";

export default defineConfig({
  main: {
    build: {
      rolldownOptions: {
        input: {
          index: resolve("src/main/index.ts"),
          storeWorker: resolve("src/main/store/storeWorker.ts"),
          extractWorker: resolve("src/main/search/extractWorker.ts"),
          sandboxHost: resolve("src/main/sandbox/sandboxHost.ts"),
        },
      },
    },
  },
  preload: {
    build: {
      lib: { entry: resolve("src/preload/index.ts"), formats: ["cjs"], fileName: () => "index.cjs" },
      // A sandboxed preload cannot require() anything but electron, so bundle every dependency.
      externalizeDeps: false,
    },
  },
  renderer: {
    root: resolve("src/renderer"),
    build: {
      rolldownOptions: { input: resolve("src/renderer/index.html") },
    },
    plugins: [react()],
  },
});
