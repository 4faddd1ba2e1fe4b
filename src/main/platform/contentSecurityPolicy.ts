// The renderer's Content-Security-Policy, sent as a response header by the main process (for the
// app:// protocol and for the dev server), so no page can run code it did not ship with.

export interface CspInput {
  /** Origin of the Vite dev server (`http://localhost:5173`) in `npm start`; absent in a build. */
  readonly devServerOrigin?: string | undefined;
}

export function contentSecurityPolicy(input: CspInput = {}): string {
  const dev = input.devServerOrigin;
  // In development only: Vite injects inline <style> tags and React Refresh's inline preamble, and
  // hot reload talks over a WebSocket to the dev server.
  const scriptSrc = dev ? "'self' 'unsafe-inline'" : "'self'";
  const styleSrc = dev ? "'self' 'unsafe-inline'" : "'self'";
  const connectSrc = dev ? `'self' ${dev.replace(/^http/, "ws")}` : "'self'";
  return [
    "default-src 'none'",
    `script-src ${scriptSrc}`,
    `style-src ${styleSrc}`,
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src ${connectSrc}`,
    "worker-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-src 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
}
