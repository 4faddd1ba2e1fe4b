// Web mode's credentials for one launch: the session cookie, the single-use links printed so far,
// and the per-tab secrets they were traded for (see webAuth.ts for why both cookie and secret).
// Tokens and secrets are kept as SHA-256 digests, so a lookup's timing says nothing about them.

import { createHash, randomBytes } from "node:crypto";
import type { CredentialView, LinkRecord } from "./webAuth.js";

/** A link works this long unused. */
export const DefaultLinkTtlMs = 5 * 60_000;
/** Links remembered (so an old one says "already used" rather than "not valid"). */
const MaxLinks = 1000;

export interface WebCredentialsOptions {
  /** Injectable clock, for tests of expiry. */
  readonly now?: () => number;
  readonly linkTtlMs?: number;
}

export interface WebCredentials extends CredentialView {
  now(): number;
  /** A new single-use token. */
  mintLink(): string;
  /** Retires `token` (already checked by decideSignIn) and returns a new tab secret. */
  redeem(token: string): string;
}

const digest = (value: string): string => createHash("sha256").update(value).digest("hex");
const random = (bytes: number): string => randomBytes(bytes).toString("base64url");

export function createCredentials(options: WebCredentialsOptions = {}): WebCredentials {
  const now = options.now ?? Date.now;
  const links = new Map<string, LinkRecord>();
  const secrets = new Set<string>();
  return {
    cookie: random(32),
    linkTtlMs: options.linkTtlMs ?? DefaultLinkTtlMs,
    now,
    link: (token) => links.get(digest(token)),
    isPageSecret: (secret) => secrets.has(digest(secret)),
    mintLink() {
      const token = random(24);
      links.set(digest(token), { issuedAt: now() });
      // Map keeps insertion order: drop the oldest.
      if (links.size > MaxLinks) links.delete(links.keys().next().value as string);
      return token;
    },
    redeem(token) {
      const key = digest(token);
      const record = links.get(key);
      if (record === undefined || record.usedAt !== undefined) throw new Error("redeem: the link is not usable");
      links.set(key, { ...record, usedAt: now() });
      const secret = random(32);
      secrets.add(digest(secret));
      return secret;
    },
  };
}
