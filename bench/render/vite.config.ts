// Builds the real renderer with the fake API in place of the transport, into a temp folder.
import react from "@vitejs/plugin-react";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

const here = fileURLToPath(new URL(".", import.meta.url));
const root = resolve(here, "../../src/renderer");

export default defineConfig({
  root,
  base: "./",
  plugins: [
    react(),
    {
      name: "baton-fake-transport",
      enforce: "pre",
      resolveId(source, importer) {
        if (importer !== undefined && importer.startsWith(root) && /\/transport\/index(\.js)?$/.test(source)) return resolve(here, "fakeTransport.ts");
        return null;
      },
    },
  ],
  build: { outDir: process.env["BATON_BENCH_OUT"] ?? resolve(here, "../../out/bench-render"), emptyOutDir: true },
});
