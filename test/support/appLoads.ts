// Every file the built app opens at run time, found by reading the built files themselves from
// their entry points (out/main/index.js, out/preload/index.cjs, out/renderer/index.html) and
// following what they name: static and dynamic imports, require(), export-from, a resolver's
// .resolve("pkg/file"), new URL("…", import.meta.url) (the built branch of a ".ts" test: the
// other one runs only under tsx), path.join(here, "…") in the main bundle, a .wasm named by a
// string next to the code that loads it, and the HTML's and CSS's src/href/url(). Packages are
// resolved as Node does (node_modules up the tree; "exports" with the node/import/require
// conditions, else "main"/index.js) and followed into. Comments are dropped first (esbuild), so a
// JSDoc `import("./x")` type is not a load. Nothing runs: it reads files.
import { transformSync } from "esbuild";
import fs from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";

export interface Load {
  /** Absolute path of the file opened. */
  readonly file: string;
  /** The file that names it, or "entry". */
  readonly from: string;
  /** How it is named: import, require, new URL, path.join, resolve, wasm, html, css. */
  readonly how: string;
}

export interface Unresolved {
  readonly specifier: string;
  readonly from: string;
  readonly how: string;
}

export interface AppLoads {
  readonly loads: readonly Load[];
  /** Named, but nothing on disk answers (an optional package not installed, a dev-only path). */
  readonly unresolved: readonly Unresolved[];
}

const builtins = new Set([...builtinModules, "electron"]);

function isBuiltin(specifier: string): boolean {
  return specifier.startsWith("node:") || builtins.has(specifier) || builtins.has(specifier.split("/")[0] ?? "");
}

function isFile(file: string): boolean {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

function readJson(file: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

const EXTENSIONS = ["", ".js", ".mjs", ".cjs", ".json", ".node"];

function asFile(base: string): string | undefined {
  for (const ext of EXTENSIONS) if (isFile(base + ext)) return base + ext;
  for (const index of ["index.js", "index.json", "index.node"]) if (isFile(path.join(base, index))) return path.join(base, index);
  return undefined;
}

/** A target of package.json "exports" for these conditions (first matching key wins, as in Node). */
function exportTarget(value: unknown, conditions: readonly string[]): string | undefined {
  if (typeof value === "string") return value;
  if (Array.isArray(value)) {
    for (const item of value) {
      const hit = exportTarget(item, conditions);
      if (hit !== undefined) return hit;
    }
    return undefined;
  }
  if (value !== null && typeof value === "object") {
    for (const [key, inner] of Object.entries(value)) {
      if (key === "default" || conditions.includes(key)) {
        const hit = exportTarget(inner, conditions);
        if (hit !== undefined) return hit;
      }
    }
  }
  return undefined;
}

function resolveExports(exportsField: unknown, subpath: string, conditions: readonly string[]): string | undefined {
  const map =
    typeof exportsField === "string" || Array.isArray(exportsField) || Object.keys(exportsField as object).every((k) => !k.startsWith("."))
      ? { ".": exportsField }
      : (exportsField as Record<string, unknown>);
  if (subpath in map) return exportTarget(map[subpath], conditions);
  for (const [key, value] of Object.entries(map)) {
    const star = key.indexOf("*");
    if (star < 0) continue;
    const [head, tail] = [key.slice(0, star), key.slice(star + 1)];
    if (subpath.startsWith(head) && subpath.endsWith(tail) && subpath.length >= key.length - 1) {
      const target = exportTarget(value, conditions);
      return target?.replaceAll("*", subpath.slice(head.length, subpath.length - tail.length));
    }
  }
  return undefined;
}

/** A bare specifier as Node resolves it from `fromDir`; undefined when no installed package answers. */
function resolvePackage(specifier: string, fromDir: string, conditions: readonly string[]): string | undefined {
  const parts = specifier.split("/");
  const nameParts = specifier.startsWith("@") ? 2 : 1;
  const name = parts.slice(0, nameParts).join("/");
  const rest = parts.slice(nameParts).join("/");
  for (let dir = fromDir; ; dir = path.dirname(dir)) {
    const pkgDir = path.join(dir, "node_modules", name);
    const pkg = readJson(path.join(pkgDir, "package.json"));
    if (pkg !== undefined) {
      if (pkg["exports"] !== undefined && pkg["exports"] !== null) {
        const target = resolveExports(pkg["exports"], rest === "" ? "." : `./${rest}`, conditions);
        return target === undefined ? undefined : asFile(path.join(pkgDir, target));
      }
      if (rest !== "") return asFile(path.join(pkgDir, rest));
      const main = typeof pkg["main"] === "string" ? pkg["main"] : "index.js";
      return asFile(path.join(pkgDir, main)) ?? asFile(path.join(pkgDir, "index"));
    }
    if (path.dirname(dir) === dir) return undefined;
  }
}

function resolveSpecifier(specifier: string, fromFile: string, conditions: readonly string[]): string | undefined {
  if (specifier.startsWith("./") || specifier.startsWith("../") || specifier.startsWith("/")) {
    return asFile(path.resolve(path.dirname(fromFile), specifier));
  }
  return resolvePackage(specifier, path.dirname(fromFile), conditions);
}

/** The code without comments (a JSDoc `import("…")` type is not a load), else the text as is. */
function withoutComments(file: string, text: string): string {
  try {
    return transformSync(text, { loader: file.endsWith(".json") ? "json" : "js", legalComments: "none", minifyWhitespace: true, logLevel: "silent" }).code;
  } catch {
    return text;
  }
}

interface Reference {
  readonly specifier: string;
  readonly how: string;
  /** import(): the "import" condition; require(): "require". */
  readonly conditions: readonly string[];
  /** Relative to the file's folder whatever it looks like (path.join, new URL, a .wasm name). */
  readonly relative?: boolean;
}

const IMPORT = ["node", "import"];
const REQUIRE = ["node", "require"];

function* matches(text: string, pattern: RegExp): Generator<string> {
  for (const m of text.matchAll(pattern)) if (m[1] !== undefined) yield m[1];
}

/** What a script names. `devOnly` collects the new URL(…) taken only when running the .ts sources. */
function scriptReferences(code: string): { refs: Reference[]; devOnly: string[] } {
  const refs: Reference[] = [];
  const devOnly = [...matches(code, /\.endsWith\(["']\.ts["']\)\s*\?\s*new URL\(\s*["']([^"']+)["']/g)];
  // A specifier as code writes one: no spaces, commas, braces or template parts (those are text).
  const q = `["']([\\w@.][\\w@./+~-]*)["']`;
  for (const s of matches(code, new RegExp(`(?:^|[^\\w$."'\\x60])import\\s*(?:[\\w$*{},\\s]+from\\s*)?${q}`, "g"))) refs.push({ specifier: s, how: "import", conditions: IMPORT });
  for (const s of matches(code, new RegExp(`(?:^|[^\\w$."'\\x60])export\\s*[\\w$*{},\\s]*from\\s*${q}`, "g"))) refs.push({ specifier: s, how: "import", conditions: IMPORT });
  for (const s of matches(code, new RegExp(`(?:^|[^\\w$."'\\x60])import\\(\\s*${q}\\s*\\)`, "g"))) refs.push({ specifier: s, how: "import()", conditions: IMPORT });
  for (const s of matches(code, new RegExp(`(?:^|[^\\w$."'\\x60])require\\(\\s*${q}\\s*\\)`, "g"))) refs.push({ specifier: s, how: "require", conditions: REQUIRE });
  for (const s of matches(code, new RegExp(`\\.resolve\\(\\s*${q}\\s*\\)`, "g"))) {
    if (!s.startsWith(".") && !s.startsWith("/")) refs.push({ specifier: s, how: "resolve", conditions: REQUIRE });
  }
  const urls = [...matches(code, new RegExp(`new URL\\(\\s*${q}\\s*,\\s*(?:import\\.meta\\.url|here)\\s*\\)`, "g"))];
  for (const s of urls) if (!devOnly.includes(s)) refs.push({ specifier: s, how: "new URL", conditions: IMPORT, relative: true });
  for (const s of matches(code, new RegExp(`new URL\\(\\s*[\\w$.]+\\.endsWith\\(["']\\.ts["']\\)\\s*\\?\\s*["'][^"']+["']\\s*:\\s*${q}`, "g"))) {
    refs.push({ specifier: s, how: "new URL", conditions: IMPORT, relative: true });
  }
  for (const s of matches(code, new RegExp(`path\\.join\\(\\s*here\\s*,\\s*${q}\\s*\\)`, "g"))) refs.push({ specifier: s, how: "path.join", conditions: IMPORT, relative: true });
  for (const s of matches(code, /["']([\w.-]+\.wasm)["']/g)) refs.push({ specifier: s, how: "wasm", conditions: IMPORT, relative: true });
  return { refs, devOnly };
}

function markupReferences(file: string, text: string): Reference[] {
  const pattern = file.endsWith(".css") ? /url\(\s*["']?([^"')]+)["']?\s*\)/g : /(?:src|href)=["']([^"']+)["']/g;
  return [...matches(text, pattern)]
    .filter((s) => !/^(?:data:|https?:|mailto:|#)/.test(s))
    .map((s) => ({ specifier: s.split(/[?#]/)[0] ?? s, how: file.endsWith(".css") ? "css" : "html", conditions: IMPORT, relative: true }));
}

function allFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? allFiles(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

/**
 * Follows the built app from its entries. `extra` adds files the app opens by a path this
 * reading cannot see (each with the reason as `how`).
 */
export function appLoads(entries: readonly string[], extra: readonly Load[] = []): AppLoads {
  const loads = new Map<string, Load>();
  const unresolved: Unresolved[] = [];
  const queue: Load[] = [...entries.map((file) => ({ file, from: "entry", how: "entry" })), ...extra];
  for (let load = queue.shift(); load !== undefined; load = queue.shift()) {
    if (loads.has(load.file)) continue;
    loads.set(load.file, load);
    if (!isFile(load.file)) {
      // A folder the code joins a path to (the renderer's root): everything under it is served.
      if (fs.existsSync(load.file)) for (const f of allFiles(load.file)) queue.push({ file: f, from: load.from, how: load.how });
      continue;
    }
    const file = load.file;
    let refs: Reference[];
    if (/\.(?:html|css)$/.test(file)) refs = markupReferences(file, fs.readFileSync(file, "utf8"));
    else if (/\.(?:js|mjs|cjs)$/.test(file)) refs = scriptReferences(withoutComments(file, fs.readFileSync(file, "utf8"))).refs;
    else continue;
    for (const ref of refs) {
      if (isBuiltin(ref.specifier)) continue;
      const target = ref.relative
        ? (() => {
            const at = path.resolve(path.dirname(file), ref.specifier);
            return fs.existsSync(at) ? at : undefined;
          })()
        : resolveSpecifier(ref.specifier, file, ref.conditions);
      if (target === undefined) unresolved.push({ specifier: ref.specifier, from: file, how: ref.how });
      else queue.push({ file: target, from: file, how: ref.how });
    }
  }
  return { loads: [...loads.values()].filter((l) => isFile(l.file)), unresolved };
}

/** The new URL(…) paths of a built script that only the TypeScript sources take (under tsx). */
export function devOnlyReferences(file: string): readonly string[] {
  return scriptReferences(withoutComments(file, fs.readFileSync(file, "utf8"))).devOnly;
}
