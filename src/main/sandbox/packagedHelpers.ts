// The sandbox runtime finds its Linux seccomp helper beside its own files. In an installed Baton
// those files sit inside app.asar, which Electron's file functions read but bubblewrap, starting
// the helper by its path, cannot: the path names a file inside an archive. electron-builder keeps
// the real helper in app.asar.unpacked/ (asarUnpack in electron-builder.yml), so the host hands
// the runtime that path. Outside an archive (npm start, the command line) the runtime's own
// lookup already works and nothing is passed. The same archive is no folder to start the host
// process in (outsideAsar).
import path from "node:path";

/** `file` with its app.asar folder swapped for app.asar.unpacked; undefined when not inside one. */
export function asarUnpackedPath(file: string): string | undefined {
  const parts = file.split(path.sep);
  const at = parts.indexOf("app.asar");
  if (at < 0) return undefined;
  return [...parts.slice(0, at), "app.asar.unpacked", ...parts.slice(at + 1)].join(path.sep);
}

/** `dir`, or when it lies inside app.asar the folder holding the archive (a process can start there). */
export function outsideAsar(dir: string): string {
  const parts = dir.split(path.sep);
  const at = parts.indexOf("app.asar");
  return at < 0 ? dir : parts.slice(0, at).join(path.sep) || path.sep;
}

/**
 * The runtime's `seccomp` setting for an installed app on Linux: the unpacked apply-seccomp for
 * this CPU (the runtime ships x64 and arm64). `runtimeEntry` is the resolved path of
 * @anthropic-ai/sandbox-runtime's entry (its dist/index.js).
 */
export function seccompSetting(runtimeEntry: string, platform: string, arch: string): { readonly applyPath: string } | undefined {
  if (platform !== "linux" || (arch !== "x64" && arch !== "arm64")) return undefined;
  const packageDir = path.dirname(path.dirname(runtimeEntry));
  const unpacked = asarUnpackedPath(path.join(packageDir, "vendor", "seccomp", arch, "apply-seccomp"));
  return unpacked === undefined ? undefined : { applyPath: unpacked };
}
