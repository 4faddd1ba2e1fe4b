// What the window's page may be granted: desktop notifications ("Needs you", a long turn ended) and
// writing text to the clipboard ("Continue in terminal"), for Baton's own page only. Everything else
// (camera, microphone, geolocation, reading the clipboard, …) is refused.
import { isSameOrigin } from "./navigationPolicy.js";

const Granted: ReadonlySet<string> = new Set(["notifications", "clipboard-sanitized-write"]);

/** `requestingUrl`: the page (or its origin) asking; anything but the app's origin is refused. */
export function allowsPermission(permission: string, requestingUrl: string | undefined, appOrigin: string): boolean {
  return Granted.has(permission) && requestingUrl !== undefined && isSameOrigin(requestingUrl, appOrigin);
}
