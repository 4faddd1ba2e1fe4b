// Module hooks for the claude-code-ui reader: `sqlite3` resolves to the stand-in next to this file.
// Every other import resolves as Node would resolve it.
const StandIn = new URL("./sqlite3StandIn.mjs", import.meta.url).href;

export async function resolve(specifier, context, nextResolve) {
  if (specifier === "sqlite3") return { url: StandIn, shortCircuit: true };
  return nextResolve(specifier, context);
}
