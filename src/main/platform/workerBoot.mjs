// Worker bootstrap: under tsx (tests, `npx baton`) the worker's entry is a .ts file that Node
// cannot load by itself, so register tsx in this thread first; a built .js entry loads as is.
import { workerData } from "node:worker_threads";

if (workerData.entry.endsWith(".ts")) {
  const { register } = await import("tsx/esm/api");
  register();
}
await import(workerData.entry);
