// Links that leave the app open in the user's browser or mail client, never inside Baton; only
// schemes on the allowlist are handed to the OS (a `file:` or custom-scheme URL could run code).

export interface ExternalLinkPolicy {
  /** URL protocols, with the colon: `https:`, `mailto:`. */
  readonly protocols: readonly string[];
  /** If set, https links must point at one of these hosts (`*.example.com` matches subdomains). */
  readonly hosts?: readonly string[];
}

export const DEFAULT_EXTERNAL_LINK_POLICY: ExternalLinkPolicy = { protocols: ["https:", "mailto:"] };

const MAX_URL_LENGTH = 2048;

function hostAllowed(hostname: string, hosts: readonly string[] | undefined): boolean {
  if (!hosts) return true;
  return hosts.some((pattern) =>
    pattern.startsWith("*.") ? hostname.endsWith(pattern.slice(1)) : hostname === pattern,
  );
}

export function isAllowedExternalUrl(url: string, policy: ExternalLinkPolicy = DEFAULT_EXTERNAL_LINK_POLICY): boolean {
  // Control characters and spaces are how spoofed or smuggled URLs usually look.
  if (url.length > MAX_URL_LENGTH || /[\u0000-\u0020\u007f]/.test(url)) return false;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (!policy.protocols.includes(parsed.protocol)) return false;
  if (parsed.protocol === "mailto:") return parsed.pathname.length > 0;
  if (parsed.username !== "" || parsed.password !== "") return false;
  return parsed.hostname !== "" && hostAllowed(parsed.hostname.toLowerCase(), policy.hosts);
}

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
