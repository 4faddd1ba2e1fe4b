// A real web server over a SessionManager with no CLI behind it, serving a few stand-in renderer
// files from a temp folder: for tests of the web layer itself (auth, transport). The credentials
// outlive a restart, as a tab's would be when the same server comes back.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { BatonService } from "../../src/main/core/batonService.js";
import { SessionManager } from "../../src/main/core/sessionManager.js";
import { createCredentials, type WebCredentials, type WebCredentialsOptions } from "../../src/main/transport/web/webCredentials.js";
import { startWebServer, type WebServer } from "../../src/main/transport/web/webServer.js";

export interface WebFixture {
  server: WebServer;
  readonly credentials: WebCredentials;
  /** Starts the server again (after `server.close()`), on `port` if given. */
  restart(port?: number): Promise<WebServer>;
  close(): Promise<void>;
}

export async function startWebFixture(files: Readonly<Record<string, string>>, credentialOptions: WebCredentialsOptions = {}): Promise<WebFixture> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "baton-web-"));
  for (const [name, body] of Object.entries(files)) await writeFile(path.join(dir, name), body);
  const manager = new SessionManager({ claudePath: "/nonexistent/claude" });
  const credentials = createCredentials(credentialOptions);
  const start = (port?: number) =>
    startWebServer({ service: new BatonService(manager), rendererDir: dir, credentials, ...(port !== undefined ? { port } : {}) });
  const fixture: WebFixture = {
    server: await start(),
    credentials,
    async restart(port) {
      fixture.server = await start(port);
      return fixture.server;
    },
    async close() {
      await fixture.server.close();
      await manager.shutdown();
      await rm(dir, { recursive: true, force: true });
    },
  };
  return fixture;
}
