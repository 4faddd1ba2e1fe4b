// Response headers for web mode: a strict CSP on HTML (the WebSocket is the only connection the
// page may open), and no sniffing, framing, referrers or caching anywhere.

import { contentSecurityPolicy } from "../../platform/contentSecurityPolicy.js";
import { allowedHosts } from "./webAuth.js";

export function webCsp(port: number): string {
  // 'self' covers ws: only in newer browsers; name the socket's origins explicitly (on port 80
  // the page's host has no port, so its socket URL has none either).
  const sockets = allowedHosts(port)
    .map((h) => `ws://${h}`)
    .join(" ");
  return contentSecurityPolicy().replace("connect-src 'self'", `connect-src 'self' ${sockets}`);
}

export function commonHeaders(): Record<string, string> {
  return {
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
  };
}

const Types: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".woff": "font/woff",
  ".ttf": "font/ttf",
  ".map": "application/json; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
};

export function contentType(file: string): string {
  const dot = file.lastIndexOf(".");
  return Types[dot === -1 ? "" : file.slice(dot).toLowerCase()] ?? "application/octet-stream";
}
