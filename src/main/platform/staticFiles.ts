// Maps a request path to a file under the built renderer, refusing anything that would escape it.

import path from "node:path";

export function resolveStatic(pathname: string, rootDir: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
  if (decoded.includes("\0") || decoded.includes("\\")) return undefined;
  const relative = path.posix.normalize(decoded === "/" ? "/index.html" : decoded).replace(/^\/+/, "");
  const root = path.resolve(rootDir);
  const file = path.resolve(root, relative);
  const inside = path.relative(root, file);
  if (inside === "" || inside.startsWith("..") || path.isAbsolute(inside)) return undefined;
  return file;
}
