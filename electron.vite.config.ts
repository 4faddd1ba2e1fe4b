// `npm run build` / `npm start`: main (ESM, Node target), preload (CommonJS: Electron loads a
// sandboxed preload as a classic script) and the React renderer.
import react from "@vitejs/plugin-react";
import { defineConfig } from "electron-vite";
import { resolve } from "node:path";

export default defineConfig({
  main: {
    build: {
      lib: { entry: resolve("src/main/index.ts"), formats: ["es"] },
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
