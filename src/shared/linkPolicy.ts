// Which links Baton will open outside itself: one policy for the desktop shell (which hands them
// to the OS), the markdown renderer and the WebFetch card (which, in web mode, open a tab). Only
// `https:` and `mailto:` pass: `http:` can be rewritten on the way, and `javascript:`, `data:`,
// `file:`, `vbscript:` or a custom scheme could run code. Pure: `URL` is a language global.

import { hasHidden } from "./hiddenCharacters.js";

export interface ExternalLinkPolicy {
  /** URL protocols, with the colon: `https:`, `mailto:`. */
  readonly protocols: readonly string[];
  /** If set, https links must point at one of these hosts (`*.example.com` matches subdomains). */
  readonly hosts?: readonly string[];
}

export const DEFAULT_EXTERNAL_LINK_POLICY: ExternalLinkPolicy = { protocols: ["https:", "mailto:"] };

const MAX_URL_LENGTH = 2048;
// Controls, spaces and C1 controls: the URL parser strips or rewrites some of them
// (`java\tscript:`), so a URL holding any is refused as written rather than judged after repair.
const Unsafe = /[\u0000-\u0020\u007f-\u009f]/;

function hostAllowed(hostname: string, hosts: readonly string[] | undefined): boolean {
  if (!hosts) return true;
  return hosts.some((pattern) => (pattern.startsWith("*.") ? hostname.endsWith(pattern.slice(1)) : hostname === pattern));
}

/**
 * True for an absolute URL on the policy's schemes. Relative and protocol-relative URLs
 * (`//host`), HTML entities (`https&#58;//`), credentials in https URLs, and URLs with hidden
 * direction or zero-width characters (which disguise where a link goes) are refused.
 */
export function isAllowedExternalUrl(url: string, policy: ExternalLinkPolicy = DEFAULT_EXTERNAL_LINK_POLICY): boolean {
  if (typeof url !== "string" || url.length > MAX_URL_LENGTH || Unsafe.test(url) || hasHidden(url)) return false;
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
