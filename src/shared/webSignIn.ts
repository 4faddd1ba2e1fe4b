// Web mode's sign-in contract, shared by the server (src/main/web) and the page (src/renderer):
// the printed link carries a single-use token in its fragment; the page trades it (POST) for the
// session cookie and a per-tab secret, and presents that secret as a WebSocket subprotocol.

/** Where the page trades the link's token. */
export const SignInPath = "/sign-in";
/** The socket's path. */
export const SocketPath = "/ws";
/** The subprotocol the server selects (the browser requires one of the offered to be echoed). */
export const SocketProtocol = "baton.v1";
/** Offered beside SocketProtocol; the rest is the tab's secret (base64url fits the token grammar). */
export const SecretProtocolPrefix = "baton.secret.";
/** The link's fragment: `#token=…`. */
export const TokenParam = "token";

export const LinkUsedMessage = "This link was already used; run `baton web` again or use the link it prints with --new-link.";
export const LinkExpiredMessage = "This link expired unused; run `baton web` again or use the link it prints with --new-link.";
export const NoLinkMessage = "Open the link that `baton web` printed (each link signs in one tab, once). For another tab, run `baton web --new-link`.";

export interface SignInReply {
  /** On success: the tab's secret. */
  readonly secret?: string;
  /** On refusal: why, for the person. */
  readonly error?: string;
}
