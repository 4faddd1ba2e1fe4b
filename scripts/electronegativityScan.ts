// Runs @doyensec/electronegativity over some folders and returns every finding, offline and
// quietly, for the gate (electronegativityGate.ts) to judge. Three things differ from its CLI:
// * The folders are scanned from a temporary copy in which `eng-disable` comments are defused
//   (same length, so lines and columns hold): the scanner drops findings it sees disabled, and
//   the gate must see them to check that each exception has a reason and still excepts something.
//   `.cjs` and `.mjs` files (the preload bundle) are copied as `.js`, which is all it reads.
// * Its two network look-ups (translations, Electron's release list) are answered "offline" at
//   once: a test suite must not wait on, or depend on, the network. The release check (is this
//   Electron outdated?) is skipped: it is about the version, not the code, and needs the network.
// * It is told the installed Electron version, which it cannot find in `src` or `out`; it would
//   otherwise judge against the defaults of Electron 0.1.
// Parse errors come back too: a file the scanner could not read is a file it did not check.

import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";

export interface RawFinding {
  /** The scanned file, relative to the root, as it is named on disk (forward slashes). */
  readonly file: string;
  /** 1-based. */
  readonly line: number;
  readonly column: number;
  readonly check: string;
  /** The check's class name, the other name an `eng-disable` comment may use. */
  readonly checkName: string;
  readonly severity: Severity;
  readonly confidence: string;
  readonly description: string;
}

export type Severity = "INFORMATIONAL" | "LOW" | "MEDIUM" | "HIGH";
export const SeverityRank: Readonly<Record<Severity, number>> = { INFORMATIONAL: 0, LOW: 1, MEDIUM: 2, HIGH: 3 };

export interface ScanResult {
  readonly findings: readonly RawFinding[];
  /** Files the scanner could not parse. */
  readonly unparsed: readonly { readonly file: string; readonly message: string }[];
  /** Every file scanned, relative to the root. */
  readonly files: readonly string[];
}

interface EngIssue {
  readonly file: string;
  readonly location: { readonly line: number; readonly column: number };
  readonly id: string;
  readonly constructorName?: string;
  readonly severity: { readonly name: string };
  readonly confidence: { readonly name: string };
  readonly description: string;
}
type EngRun = (
  options: Record<string, unknown>,
  forCli: boolean,
) => Promise<{ readonly issues: readonly EngIssue[]; readonly errors: readonly { file: string; message: string; tolerable: boolean }[] }>;

/** What the scanner reads (see its util/file.js), plus the module flavours it skips. */
const ScannedExtensions = new Set([".js", ".jsx", ".ts", ".tsx", ".html", ".htm"]);
const RenamedExtensions = new Set([".cjs", ".mjs"]);
/** `eng-disable` with a letter swapped: no longer a directive, same length. */
const Defused = "eng_disable";

const require = createRequire(import.meta.url);

/** Scans `inputs` (folders relative to `root`) in one run. */
export async function scan(root: string, inputs: readonly string[]): Promise<ScanResult> {
  const temp = fs.mkdtempSync(path.join(os.tmpdir(), "baton-eng-"));
  try {
    const names = new Map<string, string>(); // copy's relative path → original's
    for (const input of inputs) copyTree(path.join(root, input), path.join(temp, input), input, names);
    const run = loadOffline();
    const result = await quietly(() =>
      run(
        {
          input: temp,
          isRelative: true,
          electronVersionOverride: electronVersion(),
          excludeFromScan: ["AvailableSecurityFixesGlobalCheck"],
          customScan: [],
          parserPlugins: [],
        },
        false,
      ),
    );
    const original = (file: string): string => {
      const relative = (path.isAbsolute(file) ? path.relative(temp, file) : file).split(path.sep).join("/");
      return names.get(relative) ?? relative;
    };
    return {
      findings: result.issues.map((i) => ({
        file: original(i.file),
        line: i.location.line,
        column: i.location.column,
        check: i.id,
        checkName: i.constructorName ?? i.id,
        severity: toSeverity(i.severity.name),
        confidence: i.confidence.name,
        description: i.description,
      })),
      unparsed: result.errors.filter((e) => !e.tolerable).map((e) => ({ file: original(e.file), message: e.message })),
      files: [...names.values()].sort(),
    };
  } finally {
    fs.rmSync(temp, { recursive: true, force: true });
  }
}

function copyTree(from: string, to: string, relative: string, names: Map<string, string>): void {
  const stat = fs.statSync(from, { throwIfNoEntry: false });
  if (stat === undefined || !stat.isDirectory()) throw new Error(`${relative} is not a folder`);
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    if (entry.name === "node_modules" || entry.name.startsWith(".")) continue;
    const source = path.join(from, entry.name);
    const rel = `${relative}/${entry.name}`;
    if (entry.isDirectory()) {
      copyTree(source, path.join(to, entry.name), rel, names);
      continue;
    }
    const ext = path.extname(entry.name);
    if (!entry.isFile() || (!ScannedExtensions.has(ext) && !RenamedExtensions.has(ext))) continue;
    const name = RenamedExtensions.has(ext) ? `${entry.name}.js` : entry.name;
    fs.mkdirSync(to, { recursive: true });
    fs.writeFileSync(path.join(to, name), fs.readFileSync(source, "utf8").replaceAll("eng-disable", Defused));
    names.set(`${relative}/${name}`, rel);
  }
}

/** The scanner, with `got` (its only network client) answering every request "offline". */
function loadOffline(): EngRun {
  const scannerEntry = require.resolve("@doyensec/electronegativity");
  const gotPath = createRequire(scannerEntry).resolve("got");
  const offline = Object.assign(() => Promise.reject(new Error("offline: the gate does not use the network")), {
    head: () => Promise.reject(new Error("offline: the gate does not use the network")),
  });
  require.cache[gotPath] = { id: gotPath, filename: gotPath, loaded: true, exports: offline } as unknown as NodeJS.Module;
  return require(scannerEntry) as EngRun;
}

/** Runs `work` with console.log silenced: the scanner says "could not retrieve translations" even when asked for a result. */
async function quietly<T>(work: () => Promise<T>): Promise<T> {
  const log = console.log;
  console.log = () => undefined;
  try {
    return await work();
  } finally {
    console.log = log;
  }
}

/** The Electron this repository installs (and the app runs on). */
function electronVersion(): string {
  return (require("electron/package.json") as { version: string }).version;
}

function toSeverity(name: string): Severity {
  return name === "HIGH" || name === "MEDIUM" || name === "LOW" ? name : "INFORMATIONAL";
}
