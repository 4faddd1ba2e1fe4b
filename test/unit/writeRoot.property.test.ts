// The write root holds against paths built to slip out of it: `..`, `.`, repeated slashes, unicode
// names, and real symbolic links in a temp dir (inside → inside, inside → outside, chains,
// dangling, loops, `..` after a link). The judge is the kernel itself: each generated path is
// written for real, raw (as a shell redirection opens it) and tidied by name (as a tool that calls
// path.resolve writes it), and wherever the file lands must lie under a root whenever the verdict
// was "inside".
import fs from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { checkWritePath, type WritePathFs } from "../../src/main/policy/writeRoot.js";
import { tempDirs } from "../support/tempDirs.js";

// Deep enough that no generated run of `..` (at most MaxUps) climbs out of the temp dir.
const Padding = 8;
const MaxUps = 6;

const tempDir = tempDirs("baton-write-root-", "all");
let base: string;
let W: string;
let root: string;
let worktree: string;
let outside: string;
let roots: string[];
let preexisting: Set<string>;

beforeAll(() => {
  base = tempDir();
  W = path.join(base, ...Array.from({ length: Padding }, (_, i) => `p${i}`));
  root = path.join(W, "code", "x");
  worktree = path.join(W, "wt");
  outside = path.join(W, "outside");
  roots = [root, worktree];
  for (const dir of [path.join(root, "sub", "deep"), path.join(root, "café"), path.join(W, "code", "x-evil"), path.join(outside, "deep"), worktree]) fs.mkdirSync(dir, { recursive: true });
  for (const file of [path.join(root, "file.txt"), path.join(root, "sub", "file2.txt"), path.join(outside, "secret.txt"), path.join(worktree, "wt.txt")]) fs.writeFileSync(file, "");
  const links: [string, string][] = [
    ["in-link", "sub"],
    ["abs-in-link", path.join(root, "sub", "deep")],
    ["out-link", "../../outside"],
    ["abs-out-link", outside],
    ["out-deep", path.join(outside, "deep")],
    ["chain1", "chain2"],
    ["chain2", "out-link"],
    ["chain-in1", "chain-in2"],
    ["chain-in2", "sub"],
    ["dangling-in", "sub/new-target"],
    ["dangling-out", path.join(outside, "created")],
    ["dangling-rel-out", "../../outside/rel-created"],
    ["dangling-chain", "dangling-out"],
    ["evil-prefix", "../x-evil"],
    ["up", ".."],
    ["sub/deep/climb", "../../.."],
    ["loop", "loop"],
    ["file-link", "../../outside/secret.txt"],
  ];
  for (const [name, target] of links) fs.symlinkSync(target, path.join(root, name));
  fs.symlinkSync(root, path.join(outside, "back"));
  fs.symlinkSync(root, path.join(W, "root-link"));
  preexisting = new Set(walk(base));
});


function walk(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? [p, ...walk(p)] : [p];
  });
}

function underARoot(p: string): boolean {
  return roots.some((r) => p === r || p.startsWith(`${r}/`));
}

/** Where a write to `p` really lands, by writing it (and removing what it created); undefined when the write fails. */
function landsAt(p: string): string | undefined {
  try {
    fs.writeFileSync(p, "", { flag: "a" });
  } catch {
    return undefined;
  }
  const real = fs.realpathSync.native(p);
  if (!preexisting.has(real)) fs.rmSync(real);
  return real;
}

const plainNames = ["file.txt", "sub", "deep", "file2.txt", "café", "new.txt", "x", "code", "outside", "x-evil", "wt", "secret.txt", "back"];
const linkNames = [
  "in-link", "abs-in-link", "out-link", "abs-out-link", "out-deep", "chain1", "chain2", "chain-in1", "chain-in2",
  "dangling-in", "dangling-out", "dangling-rel-out", "dangling-chain", "evil-prefix", "up", "climb", "loop", "file-link",
];

const unicodeName = fc
  .string({ unit: "grapheme", minLength: 1, maxLength: 4 })
  .filter((s) => !/[/\0]/.test(s) && s !== "." && s !== ".." && Buffer.byteLength(s) < 200);

const segment = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...plainNames) },
  { weight: 4, arbitrary: fc.constantFrom(...linkNames) },
  { weight: 4, arbitrary: fc.constant("..") },
  // Climbing back out of a link right away: where taking `..` by name and after links part ways.
  { weight: 2, arbitrary: fc.constantFrom(...linkNames).map((link) => `${link}/..`) },
  { weight: 1, arbitrary: fc.constant(".") },
  { weight: 1, arbitrary: fc.constantFrom("cafe\u0301", "日本語.txt", "ü", "🦊") },
  { weight: 1, arbitrary: unicodeName },
);

const generatedPath = fc
  .record({
    start: fc.constantFrom("relative", "relative", "root", "outside", "W", "worktree"),
    segments: fc.array(fc.record({ sep: fc.constantFrom("/", "//", "///"), name: segment }), { minLength: 1, maxLength: 5 }),
    end: fc.constantFrom("", "", "/", "/."),
  })
  .filter(({ segments }) => segments.filter((s) => s.name.endsWith("..")).length <= MaxUps)
  .map(({ start, segments, end }) => {
    const tail = segments.map((s, i) => (i === 0 && start === "relative" ? s.name : `${s.sep}${s.name}`)).join("") + end;
    const head = { relative: "", root, outside, W, worktree }[start];
    return head + tail;
  });

describe("the write root over generated paths and real links", () => {
  it("never says inside when the kernel, or a tool tidying the path by name, would write outside every root", () => {
    let insideWritten = 0;
    let escapesRefused = 0;
    fc.assert(
      fc.property(generatedPath, (file) => {
        const verdict = checkWritePath(file, roots);
        const raw = path.isAbsolute(file) ? file : `${root}/${file}`;
        const kernel = landsAt(raw);
        const tidy = landsAt(path.resolve(root, file));
        if (verdict.verdict === "inside") {
          expect(underARoot(verdict.resolved), `${file} → ${verdict.resolved}`).toBe(true);
          if (kernel !== undefined) expect(kernel, file).toBe(verdict.resolved);
          if (tidy !== undefined) expect(underARoot(tidy), `${file} (tidied) lands at ${tidy}`).toBe(true);
          if (kernel !== undefined) insideWritten += 1;
        } else if ((kernel !== undefined && !underARoot(kernel)) || (tidy !== undefined && !underARoot(tidy))) {
          escapesRefused += 1;
        }
        // And it refuses nothing the writes show to be safe.
        if (kernel !== undefined && tidy !== undefined && underARoot(kernel) && underARoot(tidy)) expect(verdict.verdict, file).toBe("inside");
      }),
      { numRuns: 1500 },
    );
    expect(insideWritten).toBeGreaterThan(10);
    expect(escapesRefused).toBeGreaterThan(10);
    // Every created file was removed: the world is as it was.
    expect(new Set(walk(base))).toEqual(preexisting);
  });
});

describe("the write root, named cases on real links", () => {
  const check = (file: string) => checkWritePath(file, roots, undefined, "coder");
  const where = () => `coder may only write inside ${root} or ${worktree}`;

  it("a link out of the root is an escape, and the message says where it leads", () => {
    expect(check("out-link/new.txt")).toEqual({
      verdict: "outside",
      resolved: path.join(outside, "new.txt"),
      message: `${where()}; out-link/new.txt leads to ${path.join(outside, "new.txt")} through a symbolic link, which is outside`,
    });
    expect(check(path.join(root, "abs-out-link", "x"))).toMatchObject({ verdict: "outside", resolved: path.join(outside, "x") });
    expect(check("file-link")).toMatchObject({ verdict: "outside", resolved: path.join(outside, "secret.txt") });
    expect(check("chain1/x")).toMatchObject({ verdict: "outside", resolved: path.join(outside, "x") });
  });

  it("`..` after a link to a folder outside climbs from the link's target, not from the link", () => {
    expect(check("out-deep/../new.txt")).toMatchObject({ verdict: "outside", resolved: path.join(outside, "new.txt") });
  });

  it("`..` is judged both by name and after links: outside either way is outside", () => {
    const wx = path.join(W, "x", "new.txt");
    // By name root/x/new.txt; after the link `up` (to W/code), `..` is W.
    expect(check("up/../x/new.txt")).toEqual({ verdict: "outside", resolved: wx, message: `${where()}; up/../x/new.txt leads to ${wx} through a symbolic link, which is outside` });
    // After the link the kernel comes back into the root; by name it climbs out to W.
    expect(check("abs-in-link/../../../x/new.txt")).toEqual({ verdict: "outside", resolved: wx, message: `${where()}; ${wx} is outside` });
    expect(check("../x-evil/new.txt")).toMatchObject({ verdict: "outside", message: `${where()}; ${path.join(W, "code", "x-evil", "new.txt")} is outside` });
  });

  it("a dangling link is followed to where the write would create its target", () => {
    expect(check("dangling-out")).toMatchObject({ verdict: "outside", resolved: path.join(outside, "created") });
    expect(check("dangling-chain")).toMatchObject({ verdict: "outside", resolved: path.join(outside, "created") });
    expect(check("dangling-rel-out")).toMatchObject({ verdict: "outside", resolved: path.join(outside, "rel-created") });
    expect(check("dangling-in")).toMatchObject({ verdict: "inside", resolved: path.join(root, "sub", "new-target"), root });
  });

  it("a sibling folder whose name starts like the root's is outside", () => {
    expect(check("evil-prefix/x")).toMatchObject({ verdict: "outside", resolved: path.join(W, "code", "x-evil", "x") });
  });

  it("a link loop cannot be resolved, so it is outside", () => {
    const verdict = check("loop/x");
    expect(verdict.verdict).toBe("outside");
    expect(verdict.message).toContain("cannot be resolved");
  });

  it("links and `..` that stay inside, repeated slashes, `.` and a trailing slash are inside", () => {
    expect(check("in-link/../file.txt")).toMatchObject({ verdict: "inside", resolved: path.join(root, "file.txt") });
    expect(check("chain-in1/new.txt")).toMatchObject({ verdict: "inside", resolved: path.join(root, "sub", "new.txt") });
    expect(check("sub/deep/../../new.txt")).toMatchObject({ verdict: "inside", resolved: path.join(root, "new.txt") });
    expect(check("../x/new.txt")).toMatchObject({ verdict: "inside", resolved: path.join(root, "new.txt") });
    expect(check(`${root.replace(/\//g, "//")}/./sub//./new.txt/`)).toMatchObject({ verdict: "inside", resolved: path.join(root, "sub", "new.txt") });
    expect(check(path.join(outside, "back", "new.txt"))).toMatchObject({ verdict: "inside", resolved: path.join(root, "new.txt") });
    expect(check(path.join(worktree, "new.txt"))).toMatchObject({ verdict: "inside", resolved: path.join(worktree, "new.txt"), root: worktree });
  });

  it("unicode names are kept as written (NFC and NFD are different files)", () => {
    expect(check("café/日本語.txt")).toMatchObject({ verdict: "inside", resolved: path.join(root, "café", "日本語.txt") });
    expect(check("cafe\u0301/x")).toMatchObject({ verdict: "inside", resolved: path.join(root, "cafe\u0301", "x") });
  });

  it("a root reached through a link is taken at its real path", () => {
    const viaLink = [path.join(W, "root-link")];
    expect(checkWritePath("new.txt", viaLink)).toMatchObject({ verdict: "inside", resolved: path.join(root, "new.txt") });
    expect(checkWritePath(path.join(root, "new.txt"), viaLink)).toMatchObject({ verdict: "inside" });
    expect(checkWritePath("out-link/x", viaLink)).toMatchObject({ verdict: "outside" });
  });
});

describe("the write root's messages", () => {
  // A made-up file system with no links: the paths that are there are their own real paths.
  const there = new Set(["/", "/etc", "/etc/passwd", "/home", "/home/user", "/home/user/code", "/home/user/code/x"]);
  const plain: WritePathFs = {
    realPath: (p) => (there.has(path.posix.resolve(p)) ? path.posix.resolve(p) : undefined),
    readLink: () => undefined,
  };
  const cwd = ["/home/user/code/x"];

  it("name the agent, the root and the path, so the model knows where it may write", () => {
    expect(checkWritePath("/etc/passwd", cwd, plain, "coder")).toEqual({
      verdict: "outside",
      resolved: "/etc/passwd",
      message: "coder may only write inside /home/user/code/x; /etc/passwd is outside",
    });
    expect(checkWritePath("../../../../etc/passwd", cwd, plain, "coder").message).toBe("coder may only write inside /home/user/code/x; /etc/passwd is outside");
    expect(checkWritePath("src/new.ts", cwd, plain, "coder")).toEqual({
      verdict: "inside",
      resolved: "/home/user/code/x/src/new.ts",
      root: "/home/user/code/x",
      message: "/home/user/code/x/src/new.ts is inside /home/user/code/x",
    });
  });

  it("refuse an empty path, a NUL, and any write when there is no root", () => {
    expect(checkWritePath("", cwd, plain, "coder").verdict).toBe("outside");
    expect(checkWritePath("a\0b", cwd, plain, "coder")).toMatchObject({ verdict: "outside", message: 'coder may only write inside /home/user/code/x; "a\\u0000b" holds a NUL character' });
    expect(checkWritePath("/home/user/code/x/a", [], plain, "coder")).toMatchObject({ verdict: "outside", message: "coder may not write anywhere: it has no write root; /home/user/code/x/a is outside" });
  });

  it("fail closed when the file system cannot be asked", () => {
    const denied: WritePathFs = {
      realPath: () => {
        throw Object.assign(new Error("EACCES: permission denied"), { code: "EACCES" });
      },
      readLink: () => undefined,
    };
    expect(checkWritePath("src/new.ts", cwd, denied, "coder")).toMatchObject({ verdict: "outside", message: expect.stringContaining("cannot be resolved (EACCES: permission denied)") });
  });
});
