// POSIX path arithmetic for the permission rules (src/shared imports no node:path). Purely textual:
// `..` and `.` are folded as written, links are not followed; whoever needs a real path resolves
// it before asking.

/** `p` made absolute against `base` (when relative) and folded: no `.`, `..` or repeated `/`. */
export function resolvePosix(base: string, p: string): string {
  const joined = p.startsWith("/") ? p : `${base}/${p}`;
  const out: string[] = [];
  for (const part of joined.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") out.pop();
    else out.push(part);
  }
  return `/${out.join("/")}`;
}

/** `p` relative to `root` (both absolute, folded), or undefined when `p` is not inside `root`. `""`: the root itself. */
export function relativeInside(root: string, p: string): string | undefined {
  if (root === "/") return p.slice(1);
  if (p === root) return "";
  return p.startsWith(`${root}/`) ? p.slice(root.length + 1) : undefined;
}

/** The folder holding `p` (absolute, folded). */
export function dirnamePosix(p: string): string {
  const cut = p.lastIndexOf("/");
  return cut <= 0 ? "/" : p.slice(0, cut);
}
