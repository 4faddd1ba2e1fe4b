// "Rewind files to here" through the session manager and the real CLI (issue 37): after a turn
// that edits a file and creates another, the dry run lists both with their content now and at the
// prompt (read from the CLI's own checkpoints), applying restores the edited file and deletes the
// new one, and the transcript marks it. A CLI without checkpointing (the person turned it off)
// refuses with its own reason, and so does the CLI for a prompt it has no checkpoint of.
// Runs on both CLIs (vitest.config.ts onBothClis).

import { randomUUID } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Transcript } from "../../src/shared/transcript.js";
import { BatonService } from "../../src/main/core/batonService.js";
import type { SessionManager } from "../../src/main/core/sessionManager.js";
import { managerFor } from "../support/appManager.js";
import { createCliEnv, type CliEnv } from "../support/cliEnv.js";
import { startModelServer, type ModelServer } from "../support/modelServer.js";
import { text } from "../support/scenarios/types.js";
import { changeTwoFiles, OriginalText as Original, toolUse as tool } from "../support/scenarios/rewindTurns.js";
import { watchTab } from "../support/tabWatch.js";
import { value } from "../support/apiValue.js";

const WaitMs = 60_000;

const prompts = (t: Transcript) => t.blocks.filter((b) => b.kind === "user");

describe("rewind files through the real CLI", () => {
  let model: ModelServer;
  let env: CliEnv;
  let manager: SessionManager;
  let service: BatonService;
  let releasePresence: () => void;
  const file = (name: string) => path.join(env.cwd, name);

  beforeAll(async () => {
    model = await startModelServer({
      main: [
        ...changeTwoFiles(file),
        { blocks: () => [tool("Edit", { file_path: file("a.txt"), old_string: "line 2 edited", new_string: "line 2 again" })] },
        { blocks: [text("Changed it again.")] },
      ],
      OFF: [{ blocks: () => [tool("Write", { file_path: file("off.txt"), content: "written\n" })] }, { blocks: [text("Wrote off.txt.")] }],
    });
    env = await createCliEnv({ baseUrl: model.url, cwdName: "app-rewind" });
    writeFileSync(file("a.txt"), Original);
    manager = managerFor(env);
    service = new BatonService(manager);
    releasePresence = manager.acquirePresence();
  });

  afterAll(async () => {
    releasePresence?.();
    await manager?.shutdown();
    await model?.close();
    await env?.cleanup();
  });

  it("previews each file's diff source, applies, restores the edited file, deletes the new one and marks the transcript", async () => {
    const tab = value(await service.newSession({ cwd: env.cwd, permissionMode: "bypassPermissions" }));
    const watch = watchTab(service, tab.tabId, WaitMs);
    try {
      value(await service.sendPrompt(tab.tabId, "first"));
      await watch.idleWith("Nothing changed yet.");
      value(await service.sendPrompt(tab.tabId, "second: change two files"));
      await watch.idleWith("Changed two files.");
      value(await service.sendPrompt(tab.tabId, "third: change it again"));
      const t = await watch.idleWith("Changed it again.");
      expect(readFileSync(file("a.txt"), "utf8")).toBe("line one\nline 2 again\nline three\n");
      const [, second, third] = prompts(t);

      // The last prompt: only a.txt changed since, back to its content after the second turn (2.1.197
      // may not have written that prompt's snapshot line yet: then from the newest backup).
      const last = value(await service.previewRewind(tab.tabId, third!.id));
      expect(last).toMatchObject({ canRewind: true, files: [{ path: file("a.txt"), current: "line one\nline 2 again\nline three\n", restored: "line one\nline 2 edited\nline three\n" }] });

      const preview = value(await service.previewRewind(tab.tabId, second!.id));
      expect(preview.canRewind).toBe(true);
      expect([...preview.files].sort((x, y) => x.path.localeCompare(y.path))).toEqual([
        { path: file("a.txt"), current: "line one\nline 2 again\nline three\n", restored: Original },
        { path: file("sub/b.txt"), current: "a new file\n", restored: null },
      ]);
      expect(preview.insertions + preview.deletions).toBeGreaterThan(0);
      // A dry run changes nothing.
      expect(existsSync(file("sub/b.txt"))).toBe(true);

      expect(value(await service.applyRewind(tab.tabId, second!.id))).toEqual({ rewound: true, filesChanged: 2 });
      expect(readFileSync(file("a.txt"), "utf8")).toBe(Original);
      expect(existsSync(file("sub/b.txt"))).toBe(false);
      // The prompt rewound to carries the mark; a notice at the end says when it happened.
      const marked = await watch.waitFor("the rewind's mark", () => watch.transcript().blocks.find((b) => b.id === second!.id && b.rewound !== undefined));
      expect(marked.rewound?.files).toBe(2);
      expect(watch.transcript().blocks.find((b) => b.id === third!.id)?.rewound).toBeUndefined();
      expect(watch.transcript().blocks.at(-1)).toMatchObject({ kind: "notice", text: "Files rewound (2 files) to just before the prompt “second: change two files”." });

      // The CLI's own refusal for a prompt it has no checkpoint of; a uuid that is no prompt of the tab is refused first.
      const unknown = await service.previewRewind(tab.tabId, randomUUID());
      expect(unknown).toMatchObject({ ok: false, error: { code: "not_found" } });
    } finally {
      watch.stop();
    }
  });

  it("a CLI without file checkpointing (turned off in Baton's environment) refuses with its reason, and nothing changes", async () => {
    const off = managerFor(env, { env: { ...env.env, CLAUDE_CODE_ENABLE_SDK_FILE_CHECKPOINTING: "0" } });
    const offService = new BatonService(off);
    const release = off.acquirePresence();
    try {
      const tab = value(await offService.newSession({ cwd: env.cwd, permissionMode: "bypassPermissions" }));
      const watch = watchTab(offService, tab.tabId, WaitMs);
      value(await offService.sendPrompt(tab.tabId, "[[OFF]] write a file"));
      const t = await watch.idleWith("Wrote off.txt.");
      const [prompt] = prompts(t);
      expect(value(await offService.previewRewind(tab.tabId, prompt!.id))).toEqual({ canRewind: false, error: "File rewinding is not enabled.", files: [], insertions: 0, deletions: 0 });
      expect(value(await offService.applyRewind(tab.tabId, prompt!.id))).toEqual({ rewound: false, error: "File rewinding is not enabled.", filesChanged: 0 });
      expect(existsSync(file("off.txt"))).toBe(true);
      expect(watch.transcript().blocks.some((b) => b.rewound !== undefined || (b.kind === "notice" && b.text?.startsWith("Files rewound")))).toBe(false);
      watch.stop();
    } finally {
      release();
      await off.shutdown();
    }
  });
});
