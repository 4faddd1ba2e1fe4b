// Lines built to make the policy engine work hard (issue 31: no input may keep a decision busy
// for more than 50 ms), by class, each at growing sizes up to what MAX_LINE_LENGTH lets through:
// the heredoc of `$x ` tokens that once took 17 s, deep nesting, long pipelines and chains, many
// expansions, long words, many repairs of the grammar's misreading, shells inside shells, many
// writes, and garbage the parser must recover from. Deterministic.

export interface PathologicalLine {
  readonly kind: string;
  readonly line: string;
}

type Maker = (n: number) => string;

const repeat = (n: number, make: (i: number) => string, join = ""): string => Array.from({ length: n }, (_, i) => make(i)).join(join);

/** Each class, and the sizes (a count of its unit) it is built at. */
const CLASSES: readonly (readonly [string, Maker, readonly number[]])[] = [
  ["heredoc of `$x ` on one line", (n) => `cat <<EOF\n${"$x ".repeat(n)}\nEOF`, [250, 1_000, 4_000, 16_000, 30_000, 60_000]],
  ["heredoc of `$x` lines", (n) => `cat <<EOF\n${"$x\n".repeat(n)}EOF`, [500, 1_000, 4_000, 16_000, 60_000]],
  ["heredoc with backticks", (n) => `cat <<EOF\n${repeat(n, (i) => `line ${i} \`echo ${i}\``, "\n")}\nEOF`, [50, 200, 500, 1_000, 5_000]],
  ["quoted heredoc (a file written)", (n) => `cat > f.ts <<'EOF'\n${repeat(n, (i) => `export const x${i} = "$y" + \`${i}\`;`, "\n")}\nEOF`, [100, 1_000, 3_000, 5_000]],
  ["nested subshells", (n) => `${"( ".repeat(n)}ls${" )".repeat(n)}`, [10, 50, 100, 200, 240]],
  ["nested substitutions", (n) => `echo ${"$(echo ".repeat(n)}x${")".repeat(n)}`, [10, 50, 100, 240]],
  ["nested backticks", (n) => nestedBackticks(n), [1, 2, 3, 4, 5]],
  ["long pipeline", (n) => repeat(n, () => "cat", " | "), [100, 500, 1_000, 2_000, 10_000]],
  ["long && chain", (n) => repeat(n, (i) => `echo ${i}`, " && "), [100, 500, 1_000, 2_000, 20_000]],
  ["many `$x` arguments", (n) => `echo ${"$x ".repeat(n)}`, [500, 1_000, 3_000, 10_000, 60_000]],
  ["long word", (n) => `echo ${"a".repeat(n)}`, [10_000, 50_000, 100_000, 199_000]],
  ["long quoted string", (n) => `echo "${"a $x ".repeat(n)}"`, [500, 1_000, 3_000, 10_000, 39_000]],
  ["many repairs", (n) => repeat(n, () => "a | b | c # note", "\n"), [10, 32, 64, 100, 200]],
  ["repairs on a long line", (n) => repeat(64, () => `a | b | c\n${"ls ".repeat(n)}`, "\n"), [10, 50, 100, 1_000]],
  ["nested bash -c", (n) => nestedShells(n), [1, 2, 3, 4, 6]],
  ["many bash -c", (n) => repeat(n, () => "bash -c 'ls && cat'", "; "), [10, 100, 300, 600, 3_000]],
  ["many eval", (n) => repeat(n, () => "eval 'ls; cat'", "; "), [10, 100, 300, 600, 3_000]],
  ["many writes", (n) => `echo x ${repeat(n, (i) => `> f${i}`, " ")}`, [10, 100, 300, 500, 5_000]],
  ["find -exec chain", (n) => `find . ${repeat(n, () => "-exec ls {} ;", " ")}`, [10, 100, 300, 600, 3_000]],
  ["arithmetic", (n) => `i=0; echo $((${"i+".repeat(n)}1))`, [100, 200, 1_000, 30_000]],
  ["many variables", (n) => repeat(n, (i) => `v${i}=${i}; eval 'echo $((v${i}))'`, "; "), [10, 100, 200, 300, 3_000]],
  ["case arms", (n) => `case $x in ${repeat(n, (i) => `a${i}) ls;;`, " ")} esac`, [100, 500, 1_000, 2_000, 8_000]],
  ["garbage", (n) => garbage(n), [300, 1_000, 3_000, 10_000, 60_000]],
];

function nestedBackticks(depth: number): string {
  let inner = "ls";
  for (let level = 0; level < depth; level++) inner = `echo \`${inner.replace(/[\\`]/g, (c) => `\\${c}`)}\``;
  return inner;
}

function nestedShells(depth: number): string {
  let line = "ls && cat";
  for (let level = 0; level < depth; level++) line = `bash -c '${line.replace(/'/g, `'\\''`)}'`;
  return line;
}

/** Shell metacharacters and words, in a fixed pseudo-random order. */
function garbage(length: number): string {
  const parts = ["$", "(", ")", "{", "}", "[", "]", "'", '"', "`", "\\", "<<", "|", "&", ";", "\n", " ", "a", "x=", "if ", "then ", "fi ", "case ", "$((", "))", "${", "#", "EOF", "do ", "done"];
  let seed = 7;
  let text = "";
  while (text.length < length) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    text += parts[seed % parts.length];
  }
  return text;
}

export function pathologicalCorpus(): readonly PathologicalLine[] {
  return CLASSES.flatMap(([kind, make, sizes]) => sizes.map((n) => ({ kind, line: make(n) })));
}
