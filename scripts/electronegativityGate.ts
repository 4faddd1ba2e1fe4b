// Electronegativity as a gate (run by test/unit/electronegativityGate.test.ts, so by `npm test`):
// the scanner exits 0 whatever it finds, so this judges its findings. Rule: no finding of MEDIUM
// severity or above unless the line carries a reviewed exception with its reason,
//     risky(call); // eng-disable CHECK_NAME OTHER_CHECK: why this is safe here
// (the scanner itself honours the comment; the reason after the colon is this gate's rule).
// An exception must be on the line it excepts (a file-wide one on line 1 is refused) and must
// still except something. The built bundle (`out/`) has no comments: a finding there is traced to
// the source file named by the bundler's `// src/…` region comment above it, and is covered by
// that file's exceptions for the same check (one exception per finding). Findings of the whole
// app (global checks: CSP, navigation limits, permission handler) have no line and cannot be
// excepted: they are fixed in the code.
//
//     node --import tsx scripts/electronegativityGate.ts [--root DIR] [folder …]   (default: src out)

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { scan, SeverityRank, type RawFinding, type ScanResult } from "./electronegativityScan.js";

export const DefaultInputs = ["src", "out"] as const;
const GateRank = SeverityRank.MEDIUM;
/**
 * Gated whatever severity the scanner gives: it rates an explicit `nodeIntegration: true` only
 * INFORMATIONAL ("review"), yet that one setting turns any script in the page into code execution.
 */
const AlwaysGated = new Set(["NODE_INTEGRATION_JS_CHECK"]);

export interface Exception {
  readonly file: string;
  readonly line: number;
  /** Check ids or class names, as written. */
  readonly checks: readonly string[];
  readonly reason: string;
}

export interface GateProblem {
  readonly file: string;
  readonly line: number;
  readonly message: string;
  readonly finding?: RawFinding;
}

export interface GateReport {
  readonly problems: readonly GateProblem[];
  /** Gated findings covered by an exception, with the exception that covers them. */
  readonly excepted: readonly { readonly finding: RawFinding; readonly exception: Exception; readonly via?: string }[];
  /** Findings below MEDIUM: reported by the scanner, not gated. */
  readonly below: number;
  readonly files: number;
}

/** `// eng-disable A B: reason` or `/* eng-disable A: reason *\/` or `<!-- eng-disable A: reason -->`, as the scanner reads them. */
const Directive = /(?:\/\/|\/\*|<!--)[ \t]*eng-disable[ \t]+(.*)$/;

/** Every `eng-disable` comment of a file's text. */
export function parseExceptions(file: string, text: string): Exception[] {
  const found: Exception[] = [];
  text.split("\n").forEach((line, index) => {
    const match = Directive.exec(line);
    if (match === null) return;
    const body = (match[1] ?? "").replace(/\s*(\*\/|-->)\s*$/, "");
    const colon = body.indexOf(":");
    const names = (colon < 0 ? body : body.slice(0, colon)).split(/[\s,]+/).filter(Boolean);
    found.push({ file, line: index + 1, checks: names, reason: colon < 0 ? "" : body.slice(colon + 1).trim() });
  });
  return found;
}

function names(exception: Exception, finding: RawFinding): boolean {
  return exception.checks.some((c) => c.toUpperCase() === finding.check.toUpperCase() || c.toLowerCase() === finding.checkName.toLowerCase());
}

/** The source file a bundle's line comes from: the nearest `// src/…` region comment above it. */
export function bundleSourceOf(bundleText: string, line: number): string | undefined {
  const lines = bundleText.split("\n");
  for (let i = Math.min(line, lines.length) - 1; i >= 0; i--) {
    const region = /^\/\/ ((?:src|scripts)\/[\w./-]+\.[cm]?[jt]sx?)$/.exec(lines[i]!.trim());
    if (region !== null) return region[1];
  }
  return undefined;
}

/** Judges a scan: every gated finding needs an exception; every exception needs a reason and a finding. */
export function judge(root: string, result: ScanResult): GateReport {
  const read = (file: string): string | undefined => {
    try {
      return fs.readFileSync(path.join(root, file), "utf8");
    } catch {
      return undefined;
    }
  };
  const exceptionsOf = new Map<string, Exception[]>();
  const exceptions = (file: string): Exception[] => {
    let list = exceptionsOf.get(file);
    if (list === undefined) exceptionsOf.set(file, (list = parseExceptions(file, read(file) ?? "")));
    return list;
  };
  const problems: GateProblem[] = [];
  const excepted: { finding: RawFinding; exception: Exception; via?: string }[] = [];
  const valid = (e: Exception) => e.reason.length > 0 && e.line > 1;
  // Exceptions of a source file spent by bundle findings traced to it: one per finding and check.
  const spent = new Set<string>();
  const spendKey = (e: Exception, f: RawFinding) => `${e.file}:${e.line}:${f.check}`;
  let below = 0;

  for (const e of result.files.flatMap(exceptions)) {
    if (e.line === 1) problems.push({ file: e.file, line: 1, message: `a file-wide eng-disable (line 1) hides every finding of ${e.checks.join(" ")} in the file; put it on the line it excepts` });
    else if (e.reason === "") problems.push({ file: e.file, line: e.line, message: `eng-disable ${e.checks.join(" ")} gives no reason; write "eng-disable ${e.checks.join(" ")}: why this is safe"` });
    for (const check of e.checks) {
      const used = result.findings.some((f) => f.file === e.file && f.line === e.line && names({ ...e, checks: [check] }, f));
      if (!used) problems.push({ file: e.file, line: e.line, message: `eng-disable ${check} excepts nothing: the scanner finds no ${check} on this line; remove it` });
    }
  }

  for (const finding of [...result.findings].sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line)) {
    if (SeverityRank[finding.severity] < GateRank && !AlwaysGated.has(finding.check)) {
      below++;
      continue;
    }
    const here = exceptions(finding.file).find((e) => e.line === finding.line && names(e, finding));
    if (here !== undefined) {
      if (valid(here)) excepted.push({ finding, exception: here });
      continue; // an exception without a reason is a problem already
    }
    const source = bundleSourceOf(read(finding.file) ?? "", finding.line);
    const covering = source === undefined ? undefined : exceptions(source).find((e) => valid(e) && names(e, finding) && !spent.has(spendKey(e, finding)));
    if (covering !== undefined) {
      spent.add(spendKey(covering, finding));
      excepted.push({ finding, exception: covering, via: source });
      continue;
    }
    const from = source === undefined ? "" : ` (bundled from ${source}, which has no unspent exception for it)`;
    problems.push({ file: finding.file, line: finding.line, message: `${finding.check} ${finding.severity} (${finding.confidence}): ${finding.description}${from}`, finding });
  }
  for (const u of result.unparsed) problems.push({ file: u.file, line: 0, message: `the scanner could not parse this file, so it was not checked: ${u.message}` });
  return { problems, excepted, below, files: result.files.length };
}

export function formatReport(report: GateReport): string {
  const out: string[] = [];
  if (report.problems.length > 0) {
    out.push(`electronegativity gate: FAILED, ${report.problems.length} problem(s) (MEDIUM or above needs a reviewed exception in the code):`);
    for (const p of report.problems) {
      const where = p.file === "N/A" ? "(whole app)" : p.finding !== undefined ? `${p.file}:${p.line}:${p.finding.column}` : `${p.file}:${p.line}`;
      out.push(`  ${where}  ${p.message}`);
    }
    out.push(`Fix the code, or end the line with "// eng-disable CHECK_NAME: why this is safe" once reviewed.`);
  } else {
    out.push(`electronegativity gate: OK, ${report.files} file(s), no finding of MEDIUM or above without a reviewed exception`);
  }
  for (const { finding: f, exception: e, via } of report.excepted) {
    out.push(`  excepted ${f.file}:${f.line} ${f.check} ${f.severity}${via !== undefined ? ` (by ${e.file}:${e.line})` : ""}: ${e.reason}`);
  }
  if (report.below > 0) out.push(`  ${report.below} finding(s) below MEDIUM, not gated`);
  return `${out.join("\n")}\n`;
}

export async function main(argv: readonly string[]): Promise<number> {
  const args = [...argv];
  const rootFlag = args.indexOf("--root");
  const root = rootFlag >= 0 && args[rootFlag + 1] !== undefined ? path.resolve(args.splice(rootFlag, 2)[1]!) : fileURLToPath(new URL("..", import.meta.url));
  const inputs = args.length > 0 ? args : [...DefaultInputs];
  for (const input of inputs) {
    if (!fs.existsSync(path.join(root, input))) {
      process.stderr.write(`electronegativity gate: ${input}/ is missing${input === "out" ? " (run `npm run build` first)" : ""}\n`);
      return 1;
    }
  }
  const report = judge(root, await scan(root, inputs));
  (report.problems.length > 0 ? process.stderr : process.stdout).write(formatReport(report));
  return report.problems.length > 0 ? 1 : 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  process.exitCode = await main(process.argv.slice(2));
}
