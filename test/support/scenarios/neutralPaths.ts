// Rewrites the machine paths of a recording (the temp HOME, and its encoded form in project folder
// names) to neutral ones, so fixtures read like /home/user/code/<scenario> on every machine.

/** How the CLI names a project folder: every non-alphanumeric character becomes `-`. */
export function encodeProjectDir(cwd: string): string {
  return cwd.replace(/[^a-zA-Z0-9]/g, "-");
}

export interface PathRewriter {
  (text: string): string;
  /** Paths that must not survive the rewrite (checked by `leftovers`). */
  readonly forbidden: readonly string[];
}

/** Maps `realHome` (and its encoded form) to `neutralHome`; longest match first. */
export function createPathRewriter(realHome: string, neutralHome = "/home/user", alsoForbidden: readonly string[] = []): PathRewriter {
  const pairs: [string, string][] = [
    [realHome, neutralHome],
    [encodeProjectDir(realHome), encodeProjectDir(neutralHome)],
  ];
  const rewrite = ((text: string) => {
    let out = text;
    for (const [from, to] of pairs) out = out.split(from).join(to);
    return out;
  }) as PathRewriter;
  Object.defineProperty(rewrite, "forbidden", { value: [realHome, encodeProjectDir(realHome), ...alsoForbidden] });
  return rewrite;
}

/** Forbidden paths still present in `text` (after rewriting). */
export function leftovers(rewrite: PathRewriter, text: string): string[] {
  return rewrite.forbidden.filter((p) => p.length > 0 && text.includes(p));
}
