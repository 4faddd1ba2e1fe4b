// Which frames may call the API: only the app's own main frame (VS Code's ipcMain refuses
// foreign frames the same way). Pure.

/** True when `frameUrl` is a page of `appOrigin` (e.g. `app://baton` or the dev server's origin). */
export function isTrustedSender(frameUrl: string | undefined, appOrigin: string): boolean {
  if (frameUrl === undefined || frameUrl === "") return false;
  let url: URL;
  let origin: URL;
  try {
    url = new URL(frameUrl);
    origin = new URL(appOrigin);
  } catch {
    return false;
  }
  // URL.origin is "null" for custom schemes like app://, so compare scheme and host directly.
  return url.protocol === origin.protocol && url.host === origin.host && url.username === "" && url.password === "";
}
