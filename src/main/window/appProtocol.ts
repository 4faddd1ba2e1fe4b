// The built renderer is served from `app://baton/…` rather than file://, so it has a real origin
// that navigation checks can compare against, and so responses can carry the CSP header.
import { resolveStatic } from "../platform/staticFiles.js";

export const APP_SCHEME = "app";
export const APP_HOST = "baton";
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_ENTRY_URL = `${APP_ORIGIN}/index.html`;

/**
 * The file under `rootDir` that an app:// URL names, or undefined for any URL that is not ours or
 * that would escape `rootDir` (`..`, encoded separators, absolute paths).
 */
export function resolveAppAsset(url: string, rootDir: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== `${APP_SCHEME}:` || parsed.host !== APP_HOST) return undefined;
  return resolveStatic(parsed.pathname, rootDir);
}
