// One index can hold several history folders (the app's folder can be changed; `--projects-dir`
// indexes another into the same file). A search asked for one folder shows only its sessions:
// a hit from a folder not in use could not be opened.
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StoreService } from "../../src/main/store/storeService.js";
import { writePromptSession } from "../support/historyFiles.js";
import { tempDirs } from "../support/tempDirs.js";

describe("search in one history folder of an index that holds several", () => {
  const tempDir = tempDirs("baton-folders-", "all");
  let tmp: string;
  let store: StoreService;
  let current: string;
  let older: string;
  const inCurrent = "11111111-1111-4111-8111-111111111111";
  const inOlder = "22222222-2222-4222-8222-222222222222";

  beforeAll(async () => {
    tmp = tempDir();
    current = path.join(tmp, "projects");
    // A sibling whose name starts with the other's: a prefix of the path is not the folder.
    older = path.join(tmp, "projects-old");
    writePromptSession(current, inCurrent, "rename the wombat module");
    writePromptSession(older, inOlder, "the wombat module is slow");
    store = new StoreService({ dbPath: path.join(tmp, "cfg", "history.db") });
    await store.index(older);
    await store.index(current);
  });
  afterAll(() => {
    store?.close();
  });

  const sessions = (options: { projectsDir?: string } = {}) => store.search("wombat", options).map((h) => h.sessionId).sort();

  it("shows only the hits of the folder asked for", () => {
    expect(sessions({ projectsDir: current })).toEqual([inCurrent]);
    expect(sessions({ projectsDir: older })).toEqual([inOlder]);
    // The folder may be named with a trailing separator or relative steps.
    expect(sessions({ projectsDir: `${older}${path.sep}` })).toEqual([inOlder]);
    expect(sessions({ projectsDir: path.join(current, "..", "projects") })).toEqual([inCurrent]);
  });

  it("shows every folder's hits when no folder is named", () => {
    expect(sessions()).toEqual([inCurrent, inOlder]);
  });

  it("finds nothing in a folder the index has not read", () => {
    expect(sessions({ projectsDir: path.join(tmp, "elsewhere") })).toEqual([]);
  });
});
