// A search over history finds what was written since the app indexed its folder (a session run
// since Baton started, a live tab's new turns): the history source brings the index up to the
// files first. And it never hangs on a long index run (the first index of a large archive, which
// the store runs before any other): past a short wait it answers from what is indexed so far.
// A real store in the worker; the long run is the real run held at a gate.
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createHistorySource } from "../../src/main/core/historySource.js";
import { openStore, type StoreClient } from "../../src/main/store/storeClient.js";
import { gate } from "../support/gate.js";
import { writePromptSession } from "../support/historyFiles.js";
import { tempDirs } from "../support/tempDirs.js";

const tempDir = tempDirs("baton-fresh-");
let store: StoreClient | undefined;
afterEach(async () => {
  await store?.close();
  store = undefined;
});

const sessionsFound = async (search: (q: string, limit: number) => Promise<readonly { sessionId: string }[]>, query: string) => (await search(query, 10)).map((h) => h.sessionId);

describe("a search over history", () => {
  it("finds a session written after the folder was indexed", async () => {
    const projectsDir = path.join(tempDir(), "projects");
    writePromptSession(projectsDir, "s1", "the alpha plan");
    store = await openStore({ dbPath: path.join(projectsDir, "..", "history.db") });
    await store.index(projectsDir);
    const history = createHistorySource({ projectsDir, store });
    writePromptSession(projectsDir, "s2", "the beta plan");
    expect(await sessionsFound(history.search!, "beta")).toEqual(["s2"]);
    expect(await sessionsFound(history.search!, "plan")).toEqual(expect.arrayContaining(["s1", "s2"]));
  });

  it("answers from what is indexed while a long index run holds the store, and finds the rest once it is done", async () => {
    const projectsDir = path.join(tempDir(), "projects");
    writePromptSession(projectsDir, "s1", "the alpha plan");
    const real = await openStore({ dbPath: path.join(projectsDir, "..", "history.db") });
    store = real;
    await real.index(projectsDir);
    // Every index run waits at the gate first, as a long first run keeps the next one waiting.
    const held = gate();
    const slow: StoreClient = { ...real, index: async (dir, options) => (await held.opened, real.index(dir, options)) };
    const history = createHistorySource({ projectsDir, store: slow });
    writePromptSession(projectsDir, "s2", "the beta plan");
    expect(await sessionsFound(history.search!, "alpha")).toEqual(["s1"]);
    expect(await sessionsFound(history.search!, "beta")).toEqual([]);
    held.open();
    await expect.poll(() => sessionsFound(history.search!, "beta")).toEqual(["s2"]);
  });
});
