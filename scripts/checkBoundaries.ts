// Boundary lint: keeps each process's code on its own side of the line (STYLE.md, "Process
// boundaries you can see"). Run by `npm run lint`; prints `file:line: message` per violation.
import { builtinModules } from "node:module";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import ts from "typescript";
import { AcyclicRooms, importCycles, roomOf, roomRule } from "./mainRooms.js";

export type Layer = "shared" | "renderer" | "preload" | "main";

export interface Violation {
  /** Repository-relative, forward slashes. */
  readonly file: string;
  /** 1-based. */
  readonly line: number;
  readonly message: string;
}

interface ModuleReference {
  /** Undefined when the specifier is not a string literal (e.g. `import(name)`). */
  readonly specifier: string | undefined;
  readonly node: ts.Node;
  readonly how: string;
}

const SOURCE_EXTENSIONS = [".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"];
const NODE_BUILTINS = new Set(builtinModules);
// Packages that only make sense with a DOM (React) or only in Node (native/server code).
const DOM_PACKAGES = ["react", "react-dom", "scheduler", "@tanstack/react-virtual", "zustand", "@xyflow/react"];
const DOM_PACKAGE_EXCEPTIONS = new Set(["zustand/vanilla"]);
const NODE_ONLY_PACKAGES = ["better-sqlite3", "ws", "playwright-core", "@anthropic-ai/claude-code", "@anthropic-ai/sandbox-runtime"];
const DOM_GLOBALS = new Set([
  "window",
  "document",
  "navigator",
  "localStorage",
  "sessionStorage",
  "requestAnimationFrame",
  "cancelAnimationFrame",
  "customElements",
  "HTMLElement",
]);
const NODE_GLOBALS = new Set(["process", "Buffer", "__dirname", "__filename", "require"]);

/** Which process a repository-relative path belongs to, if any. */
export function layerOf(repoRelativePath: string): Layer | undefined {
  const match = /^src\/(shared|renderer|preload|main)(\/|$)/.exec(toPosix(repoRelativePath));
  return match?.[1] as Layer | undefined;
}

function toPosix(p: string): string {
  return p.split(path.sep).join("/").replace(/\\/g, "/");
}

function packageMatches(specifier: string, names: readonly string[]): boolean {
  return names.some((name) => specifier === name || specifier.startsWith(`${name}/`));
}

function isNodeBuiltin(specifier: string): boolean {
  if (specifier.startsWith("node:")) return true;
  return NODE_BUILTINS.has(specifier) || NODE_BUILTINS.has(specifier.split("/")[0] ?? "");
}

function isElectron(specifier: string): boolean {
  return packageMatches(specifier, ["electron"]);
}

function isDomPackage(specifier: string): boolean {
  return packageMatches(specifier, DOM_PACKAGES) && !DOM_PACKAGE_EXCEPTIONS.has(specifier);
}

/** The repository-relative file a relative specifier names. */
function resolvedPath(fromFile: string, specifier: string): string {
  return path.posix.normalize(path.posix.join(path.posix.dirname(fromFile), specifier.replace(/[?#].*$/, "")));
}

/** The layer a relative specifier lands in, or "outside" for anything outside src/<layer>. */
function targetLayer(fromFile: string, specifier: string): Layer | "outside" | undefined {
  if (!specifier.startsWith(".") && !specifier.startsWith("/")) return undefined;
  const withoutQuery = specifier.replace(/[?#].*$/, "");
  const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(fromFile), withoutQuery));
  return layerOf(resolved) ?? "outside";
}

function collectReferences(source: ts.SourceFile): ModuleReference[] {
  const refs: ModuleReference[] = [];
  const literal = (node: ts.Node | undefined): string | undefined =>
    node && ts.isStringLiteralLike(node) ? node.text : undefined;
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) {
      refs.push({ specifier: literal(node.moduleSpecifier), node, how: "import" });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier) {
      refs.push({ specifier: literal(node.moduleSpecifier), node, how: "export-from" });
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      refs.push({ specifier: literal(node.moduleReference.expression), node, how: "import =" });
    } else if (ts.isImportTypeNode(node)) {
      const arg = ts.isLiteralTypeNode(node.argument) ? node.argument.literal : undefined;
      refs.push({ specifier: literal(arg), node, how: "import type" });
    } else if (ts.isCallExpression(node)) {
      const isDynamicImport = node.expression.kind === ts.SyntaxKind.ImportKeyword;
      const isRequire = ts.isIdentifier(node.expression) && node.expression.text === "require";
      if (isDynamicImport || isRequire) {
        refs.push({ specifier: literal(node.arguments[0]), node, how: isDynamicImport ? "import()" : "require()" });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  for (const directive of source.typeReferenceDirectives) {
    // `/// <reference types="node" />` pulls in Node's globals just like an import would.
    const specifier = directive.fileName === "node" ? "node:" : directive.fileName;
    refs.push({ specifier, node: source, how: "/// <reference types>" });
  }
  return refs;
}

/** Why `specifier` may not be imported from `layer`, or undefined if it may. */
function importRule(layer: Layer, file: string, specifier: string): string | undefined {
  const target = targetLayer(file, specifier);
  const nodeBuiltin = target === undefined && isNodeBuiltin(specifier);
  const electron = target === undefined && isElectron(specifier);
  switch (layer) {
    case "shared":
      if (specifier === "node:") return "src/shared must not reference Node's types";
      if (nodeBuiltin) return `src/shared must not import the Node built-in "${specifier}"`;
      if (electron) return `src/shared must not import "${specifier}"`;
      if (target === undefined && isDomPackage(specifier)) return `src/shared must not import the DOM-bound package "${specifier}"`;
      if (target === undefined && packageMatches(specifier, NODE_ONLY_PACKAGES)) return `src/shared must not import the Node-only package "${specifier}"`;
      if (target !== undefined && target !== "shared") return `src/shared must not import from ${describe(target)} ("${specifier}")`;
      return undefined;
    case "renderer":
      if (specifier === "node:") return "src/renderer must not reference Node's types";
      if (nodeBuiltin) return `src/renderer must not import the Node built-in "${specifier}"`;
      if (electron) return `src/renderer must not import "${specifier}"; use the preload API`;
      if (target === undefined && packageMatches(specifier, NODE_ONLY_PACKAGES)) return `src/renderer must not import the Node-only package "${specifier}"`;
      if (target === "main" || target === "preload") return `src/renderer must not import from ${describe(target)} ("${specifier}")`;
      return undefined;
    case "preload":
      if (electron || target === "preload" || target === "shared") return undefined;
      return `src/preload may import only "electron" and src/shared, not "${specifier}"`;
    case "main":
      if (target === "renderer") return `src/main must not import from src/renderer ("${specifier}")`;
      return target === "main" ? roomRule(file, resolvedPath(file, specifier)) : undefined;
  }
}

function describe(target: Layer | "outside"): string {
  return target === "outside" ? "outside src/" : `src/${target}`;
}

function isDeclarationName(node: ts.Identifier): boolean {
  const parent = node.parent;
  if (ts.isPropertyAccessExpression(parent) && parent.name === node) return true;
  if (ts.isQualifiedName(parent) && parent.right === node) return true;
  if (ts.isPropertyAssignment(parent) || ts.isPropertySignature(parent) || ts.isPropertyDeclaration(parent) ||
      ts.isMethodDeclaration(parent) || ts.isMethodSignature(parent) || ts.isEnumMember(parent) ||
      ts.isGetAccessor(parent) || ts.isSetAccessor(parent)) {
    return parent.name === node;
  }
  if (ts.isBindingElement(parent)) return parent.propertyName === node;
  return ts.isLabeledStatement(parent) || ts.isBreakOrContinueStatement(parent);
}

/** Names declared anywhere in the file: a local `document` is not the DOM's. */
function declaredNames(source: ts.SourceFile): Set<string> {
  const names = new Set<string>();
  const visit = (node: ts.Node): void => {
    const name = (node as { name?: ts.Node }).name;
    const declares = ts.isVariableDeclaration(node) || ts.isParameter(node) || ts.isFunctionDeclaration(node) ||
      ts.isClassDeclaration(node) || ts.isBindingElement(node) || ts.isImportSpecifier(node) ||
      ts.isImportClause(node) || ts.isNamespaceImport(node) || ts.isTypeAliasDeclaration(node) ||
      ts.isInterfaceDeclaration(node);
    if (declares && name && ts.isIdentifier(name)) names.add(name.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return names;
}

function globalUses(source: ts.SourceFile, globals: ReadonlySet<string>): ts.Identifier[] {
  const local = declaredNames(source);
  const found: ts.Identifier[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node) && globals.has(node.text) && !local.has(node.text) && !isDeclarationName(node)) {
      found.push(node);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function scriptKindFor(file: string): ts.ScriptKind {
  if (file.endsWith(".tsx")) return ts.ScriptKind.TSX;
  if (file.endsWith(".jsx")) return ts.ScriptKind.JSX;
  if (/\.[cm]?js$/.test(file)) return ts.ScriptKind.JS;
  return ts.ScriptKind.TS;
}

/** All boundary violations in one file. `file` is repository-relative; files outside src/ pass. */
export function checkFile(file: string, sourceText: string): Violation[] {
  const posixFile = toPosix(file);
  const layer = layerOf(posixFile);
  if (!layer) return [];
  const source = ts.createSourceFile(posixFile, sourceText, ts.ScriptTarget.Latest, true, scriptKindFor(posixFile));
  const violations: Violation[] = [];
  const report = (node: ts.Node, message: string): void => {
    const start = node === source ? 0 : node.getStart(source);
    violations.push({ file: posixFile, line: source.getLineAndCharacterOfPosition(start).line + 1, message });
  };
  for (const ref of collectReferences(source)) {
    if (ref.specifier === undefined) {
      if (layer !== "main") report(ref.node, `${ref.how} with a non-literal specifier cannot be checked in src/${layer}`);
      continue;
    }
    const problem = importRule(layer, posixFile, ref.specifier);
    if (problem) report(ref.node, problem);
  }
  if (layer === "shared") {
    for (const id of globalUses(source, DOM_GLOBALS)) report(id, `src/shared must not use the DOM global "${id.text}"`);
  }
  if (layer === "shared" || layer === "renderer") {
    const globals = new Set([...NODE_GLOBALS].filter((g) => g !== "require")); // require() is reported as an import
    for (const id of globalUses(source, globals)) report(id, `src/${layer} must not use the Node global "${id.text}"`);
  }
  return violations.sort((a, b) => a.line - b.line);
}

async function listSourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return [];
    throw error;
  });
  const files: string[] = [];
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory() && entry.name !== "node_modules") files.push(...(await listSourceFiles(full)));
    else if (entry.isFile() && SOURCE_EXTENSIONS.some((ext) => entry.name.endsWith(ext))) files.push(full);
  }
  return files;
}

/** The files of its own room that `file` (repository-relative) imports, without extension, each with its line. */
function roomImports(file: string, sourceText: string): { readonly target: string; readonly line: number }[] {
  const source = ts.createSourceFile(file, sourceText, ts.ScriptTarget.Latest, true, scriptKindFor(file));
  const room = roomOf(file);
  const out: { target: string; line: number }[] = [];
  for (const ref of collectReferences(source)) {
    if (ref.specifier === undefined || !ref.specifier.startsWith(".")) continue;
    const target = resolvedPath(file, ref.specifier);
    if (roomOf(target) !== room) continue;
    const line = source.getLineAndCharacterOfPosition(ref.node === source ? 0 : ref.node.getStart(source)).line + 1;
    out.push({ target: withoutExtension(target), line });
  }
  return out;
}

function withoutExtension(file: string): string {
  return file.replace(/\.[cm]?[jt]sx?$/, "");
}

/** Import cycles among the files of each room in `AcyclicRooms` (`sources`: repository-relative path → text). */
export function checkRoomCycles(sources: ReadonlyMap<string, string>): Violation[] {
  const violations: Violation[] = [];
  for (const room of AcyclicRooms) {
    const files = [...sources.keys()].map(toPosix).filter((f) => roomOf(f) === room);
    const byName = new Map(files.map((f) => [withoutExtension(f), f]));
    const lines = new Map<string, Map<string, number>>();
    const imports = new Map<string, string[]>();
    for (const file of files) {
      const found = roomImports(file, sources.get(file) ?? "").filter((i) => byName.has(i.target));
      const targets = new Map<string, number>();
      for (const i of found) if (!targets.has(byName.get(i.target)!)) targets.set(byName.get(i.target)!, i.line);
      lines.set(file, targets);
      imports.set(file, [...targets.keys()]);
    }
    for (const cycle of importCycles(imports)) {
      const [first, second] = cycle;
      const names = cycle.map((f) => path.posix.basename(f)).join(" → ");
      violations.push({
        file: first!,
        line: lines.get(first!)?.get(second!) ?? 1,
        message: `src/main/${room}'s files import one another in a circle (${names}): move what they share into a file of its own (scripts/mainRooms.ts)`,
      });
    }
  }
  return violations;
}

/** Checks every source file under `<root>/src`. */
export async function checkTree(root: string): Promise<{ readonly files: number; readonly violations: Violation[] }> {
  const files = (await listSourceFiles(path.join(root, "src"))).sort();
  const violations: Violation[] = [];
  const sources = new Map<string, string>();
  for (const full of files) {
    const file = toPosix(path.relative(root, full));
    const text = await readFile(full, "utf8");
    violations.push(...checkFile(file, text));
    const room = roomOf(file);
    if (room !== undefined && AcyclicRooms.has(room)) sources.set(file, text);
  }
  violations.push(...checkRoomCycles(sources));
  return { files: files.length, violations };
}

export async function main(argv: readonly string[]): Promise<number> {
  const rootFlag = argv.indexOf("--root");
  const root = rootFlag >= 0 && argv[rootFlag + 1]
    ? path.resolve(argv[rootFlag + 1] as string)
    : fileURLToPath(new URL("..", import.meta.url));
  const { files, violations } = await checkTree(root);
  for (const v of violations) process.stderr.write(`${v.file}:${v.line}: ${v.message}\n`);
  if (violations.length > 0) {
    process.stderr.write(`boundaries: ${violations.length} violation(s) in ${files} file(s)\n`);
    return 1;
  }
  process.stdout.write(`boundaries: OK, ${files} file(s) under src/ respect the process boundaries and src/main's rooms\n`);
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  process.exitCode = await main(process.argv.slice(2));
}
