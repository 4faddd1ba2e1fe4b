// Module resolve hook for the shell's boot test (registered by shellChild.mjs with node:module's
// register()): the bare specifier `electron`, which out/main/index.js imports and electron-vite
// leaves external, resolves to the test double electronStandIn.mjs. Everything else resolves as
// Node would.
const standIn = new URL("./electronStandIn.mjs", import.meta.url).href;

/** @param {string} specifier @param {unknown} context @param {(s: string, c: unknown) => Promise<unknown>} nextResolve */
export async function resolve(specifier, context, nextResolve) {
  if (specifier === "electron") return { url: standIn, shortCircuit: true };
  return nextResolve(specifier, context);
}
