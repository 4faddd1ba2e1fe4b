// Stands in for src/renderer/transport in the render bench build (see vite.config.ts).
import type { BatonApi } from "../../src/shared/api.js";
import { createFakeApi } from "./fakeApi.js";

export function getApi(): BatonApi {
  const api = createFakeApi();
  (window as unknown as { __bench: typeof api.bench }).__bench = api.bench;
  return api;
}
