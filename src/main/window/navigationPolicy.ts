// The window only ever shows Baton itself. Any navigation away from the app's origin is refused;
// an allowed external link is opened by the OS instead.
import { DEFAULT_EXTERNAL_LINK_POLICY, isAllowedExternalUrl, type ExternalLinkPolicy } from "./externalLinks.js";

/**
 * Same scheme, host and port. Compared field by field because WHATWG `URL.origin` is "null" for
 * custom schemes such as app://.
 */
export function isSameOrigin(url: string, appOrigin: string): boolean {
  try {
    const target = new URL(url);
    const app = new URL(appOrigin);
    return target.protocol === app.protocol && target.host === app.host && target.host !== "";
  } catch {
    return false;
  }
}

export function shouldAllowNavigation(url: string, appOrigin: string): boolean {
  return isSameOrigin(url, appOrigin);
}

export type NavigationDecision =
  | { readonly kind: "allow" }
  | { readonly kind: "open-external"; readonly url: string }
  | { readonly kind: "deny" };

export function decideNavigation(
  url: string,
  appOrigin: string,
  policy: ExternalLinkPolicy = DEFAULT_EXTERNAL_LINK_POLICY,
): NavigationDecision {
  if (shouldAllowNavigation(url, appOrigin)) return { kind: "allow" };
  if (isAllowedExternalUrl(url, policy)) return { kind: "open-external", url };
  return { kind: "deny" };
}
