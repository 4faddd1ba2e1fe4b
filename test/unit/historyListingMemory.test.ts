// Listing sessions reads each file's first and last lines only, so a history holding a 60 MB line
// lists in bounded memory even ten times at once (the Project panel refreshing while `baton
// sessions` runs, several windows). Measured in a fresh process: its VmHWM is the listing's own.
import { beforeAll, describe, expect, it } from "vitest";
import { makeListingFolder, type ListingFolder } from "../../bench/listing/folder.js";
import { measureListing } from "../../bench/listing/run.js";
import { listSessions } from "../../src/main/history/sessionList.js";
import { tempDirs } from "../support/tempDirs.js";

const HugeMb = 60;
const Parallel = 10;
/** Generous: ten listings that each held the line once would need 600 MB and more. */
const BoundMb = 100;

const tempDir = tempDirs("baton-list-mem-", "all");
let root: string;
let folder: ListingFolder;
beforeAll(() => {
  root = tempDir();
  folder = makeListingFolder(root, { sessions: 5, hugeMb: HugeMb });
});

describe.skipIf(process.platform !== "linux")("listing a history with a 60 MB line", () => {
  it(`ten listings at once stay under ${BoundMb} MB above the process's start`, { timeout: 120_000 }, () => {
    const m = measureListing(folder.projectsDir, Parallel);
    expect(m.sessions).toBe(7);
    expect((m.peakKb - m.baseKb) / 1024).toBeLessThan(BoundMb);
  });

  it("still names the sessions holding the line, with their times, cwd and the prompts that start them", { timeout: 60_000 }, async () => {
    const sessions = await listSessions(folder.projectsDir);
    const [middle, end] = folder.hugeFiles.map((f) => sessions.find((s) => s.path === f));
    expect(middle).toMatchObject({ title: expect.stringMatching(/^prompt 0 of /), cwd: "/home/user/code/listing", gitBranch: "main", lastTimestamp: "2026-11-30T02:00:09.000Z" });
    // The huge last line's own time is not read: the last time is that of the line before it.
    expect(end).toMatchObject({ title: expect.stringMatching(/^prompt 0 of /), cwd: "/home/user/code/listing", lastTimestamp: "2026-11-30T02:00:04.000Z" });
    // The huge line was passed over, not read: the list does not claim to have counted prompts.
    expect(middle?.promptCount).toBeUndefined();
    expect(end?.sizeBytes).toBeGreaterThan(HugeMb * 1024 * 1024);
  });
});
