// Links that leave the app open in the user's browser or mail client, never inside Baton; only
// schemes on the allowlist are handed to the OS (a `file:` or custom-scheme URL could run code).

import { DEFAULT_EXTERNAL_LINK_POLICY, isAllowedExternalUrl, type ExternalLinkPolicy } from "../../shared/linkPolicy.js";

// The policy itself is shared with the renderer (markdown links, the WebFetch card in web mode).
export { DEFAULT_EXTERNAL_LINK_POLICY, isAllowedExternalUrl, type ExternalLinkPolicy };

/**
 * For `webContents.setWindowOpenHandler`: Baton never opens a second window. An allowed link goes
 * to the OS instead; anything else is dropped.
 */
export function windowOpenHandler(
  details: { readonly url: string },
  openExternal: (url: string) => void,
  policy: ExternalLinkPolicy = DEFAULT_EXTERNAL_LINK_POLICY,
): { action: "deny" } {
  if (isAllowedExternalUrl(details.url, policy)) openExternal(details.url);
  return { action: "deny" };
}
