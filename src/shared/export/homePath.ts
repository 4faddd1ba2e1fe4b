// The person's home folder written as `~` in an export, wherever a path names it: the cwd, prompts,
// answers, tool inputs and outputs. Only a whole folder name matches: `/home/al` is not replaced
// inside `/home/alice`, nor inside `/srv/home/al`.

/** Replaces `home` by `~` in `text` wherever it stands as a whole path (or a path's start). */
export function tildeHome(text: string, home: string | undefined): string {
  const pattern = homePattern(home);
  return pattern === undefined ? text : text.replace(pattern, "~");
}

const patterns = new Map<string, RegExp | undefined>();

function homePattern(home: string | undefined): RegExp | undefined {
  if (home === undefined) return undefined;
  const bare = home.replace(/[\\/]+$/, "");
  // "/" or "C:" would match every path.
  if (bare.length < 2 || /^[A-Za-z]:$/.test(bare)) return undefined;
  let pattern = patterns.get(bare);
  if (!patterns.has(bare)) {
    const escaped = bare.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    // Not after a name's character or a separator (a deeper folder; `file://` is no folder), not
    // before a name's character (a sentence's full stop may follow).
    pattern = new RegExp(`(?<![\\w.\\-\\\\~])(?<!(?<!file:/)/)${escaped}(?![\\w\\-]|\\.[\\w\\-])`, "g");
    patterns.set(bare, pattern);
  }
  return pattern;
}
