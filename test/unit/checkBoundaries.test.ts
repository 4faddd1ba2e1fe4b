import { execFile } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { checkFile, checkRoomCycles, checkTree, layerOf } from "../../scripts/checkBoundaries.js";
import { importCycles, MainRooms, roomOf } from "../../scripts/mainRooms.js";
import { tempDirs } from "../support/tempDirs.js";

const repoRoot = path.resolve(import.meta.dirname, "../..");

function messages(file: string, source: string): string[] {
  return checkFile(file, source).map((v) => `${v.line}: ${v.message}`);
}

describe("layerOf", () => {
  it("maps paths under src/ to their process and ignores the rest", () => {
    expect(layerOf("src/shared/events.ts")).toBe("shared");
    expect(layerOf("src/renderer/app/App.tsx")).toBe("renderer");
    expect(layerOf("src/preload/index.ts")).toBe("preload");
    expect(layerOf("src/main/cli/lineFramer.ts")).toBe("main");
    expect(layerOf("src/sharedthing/x.ts")).toBeUndefined();
    expect(layerOf("test/unit/x.test.ts")).toBeUndefined();
  });
});

describe("src/shared", () => {
  const file = "src/shared/model/x.ts";

  it("rejects node: and bare Node built-ins in every import form, with the line", () => {
    const source = [
      'import fs from "node:fs";',
      'import { join } from "path";',
      'export { spawn } from "child_process";',
      'const os = await import("os");',
      'const cp = require("fs/promises");',
      'import util = require("util");',
      'type T = import("node:stream").Readable;',
    ].join("\n");
    const found = messages(file, source);
    expect(found).toHaveLength(7);
    expect(found[0]).toBe('1: src/shared must not import the Node built-in "node:fs"');
    expect(found.map((m) => m.split(":")[0])).toEqual(["1", "2", "3", "4", "5", "6", "7"]);
  });

  it("rejects electron, DOM-bound packages, Node-only packages and other layers", () => {
    const source = [
      'import { ipcRenderer } from "electron/renderer";',
      'import { useState } from "react";',
      'import { createRoot } from "react-dom/client";',
      'import Database from "better-sqlite3";',
      'import { x } from "../../renderer/App.js";',
      'import type { Y } from "../../main/hub/reducer.js";',
      'import { z } from "../../preload/index.js";',
    ].join("\n");
    const found = messages(file, source);
    expect(found).toHaveLength(7);
    expect(found[1]).toContain('DOM-bound package "react"');
    expect(found[3]).toContain('Node-only package "better-sqlite3"');
    expect(found[4]).toContain("must not import from src/renderer");
    expect(found[5]).toContain("must not import from src/main");
  });

  it("flags DOM and Node globals but not properties or locals with the same name", () => {
    const source = [
      "export const w = window.innerWidth;",
      "export const d = typeof document;",
      "export const p = process.env.HOME;",
      "export const ok = { window: 1, document: 2 }.window + config.document;",
      "function f(navigator: string) { return navigator; }",
    ].join("\n");
    expect(messages(file, source)).toEqual([
      '1: src/shared must not use the DOM global "window"',
      '2: src/shared must not use the DOM global "document"',
      '3: src/shared must not use the Node global "process"',
    ]);
  });

  it("flags a triple-slash Node types reference", () => {
    expect(messages(file, '/// <reference types="node" />\nexport {};')).toEqual([
      "1: src/shared must not reference Node's types",
    ]);
  });

  it("passes pure code that imports shared files and zustand/vanilla", () => {
    const source = [
      'import type { ClientEvent } from "../events.js";',
      'import { createStore } from "zustand/vanilla";',
      'export * from "./other.js";',
      "export function id(e: ClientEvent): ClientEvent { return e; }",
    ].join("\n");
    expect(messages(file, source)).toEqual([]);
  });
});

describe("src/renderer", () => {
  const file = "src/renderer/components/Card.tsx";

  it("rejects Node built-ins, electron, main and preload imports", () => {
    const source = [
      'import fs from "fs";',
      'import { ipcRenderer } from "electron";',
      'import { hub } from "../../main/hub/hub.js";',
      'import type { Api } from "../../preload/index.js";',
      'const mod = await import(name);',
    ].join("\n");
    const found = messages(file, source);
    expect(found).toHaveLength(5);
    expect(found[4]).toContain("non-literal specifier");
  });

  it("passes React, shared and its own files", () => {
    const source = [
      'import { useState } from "react";',
      'import type { Transcript } from "../../shared/transcript.js";',
      'import { Panel } from "./Panel.js";',
      'import logo from "../assets/logo.svg?url";',
      "export function Card() { const [n] = useState(0); return <div title={document.title}>{n}{logo}</div>; }",
    ].join("\n");
    expect(messages(file, source)).toEqual([]);
  });
});

describe("src/preload", () => {
  const file = "src/preload/index.ts";

  it("allows only electron, src/shared and its own files", () => {
    const clean = [
      'import { contextBridge, ipcRenderer } from "electron";',
      'import type { BatonApi } from "../shared/api.js";',
      'import { channels } from "./channels.js";',
    ].join("\n");
    expect(messages(file, clean)).toEqual([]);
    const dirty = ['import path from "node:path";', 'import { z } from "zustand/vanilla";', 'import { a } from "../main/x.js";'].join("\n");
    expect(messages(file, dirty)).toHaveLength(3);
  });
});

describe("src/main", () => {
  it("may use Node and electron but not the renderer", () => {
    const file = "src/main/index.ts";
    const clean = ['import { app } from "electron";', 'import fs from "node:fs";', 'import { x } from "../shared/events.js";'].join("\n");
    expect(messages(file, clean)).toEqual([]);
    expect(messages(file, 'import { App } from "../renderer/App.js";')).toEqual([
      '1: src/main must not import from src/renderer ("../renderer/App.js")',
    ]);
  });
});

describe("src/main's rooms", () => {
  it("lets a room import the rooms its row names, and no other", () => {
    expect(messages("src/main/core/sessionManager.ts", 'import { x } from "../policy/policyService.js";')).toEqual([]);
    expect(messages("src/main/platform/settingsFile.ts", 'import { x } from "../core/appError.js";')).toEqual([
      "1: src/main/platform may not import from src/main/core (allowed: nothing; scripts/mainRooms.ts)",
    ]);
    expect(messages("src/main/history/restore.ts", 'import type { X } from "../search/search.js";')).toEqual([
      "1: src/main/history may not import from src/main/search (allowed: platform, hub, audit; scripts/mainRooms.ts)",
    ]);
    expect(messages("src/main/transport/web/webServer.ts", 'import { x } from "../ipc/registerIpc.js";')[0]).toContain("src/main/transport/web may not import from src/main/transport/ipc");
  });

  it("enters the history room through its index, and asks for a row for a new room", () => {
    expect(messages("src/main/core/historySource.ts", 'import { x } from "../history/index.js";')).toEqual([]);
    expect(messages("src/main/core/historySource.ts", 'import { x } from "../history/diskMapper.js";')).toEqual([
      '1: src/main/history is entered through its index: import "../history/index.js"',
    ]);
    expect(messages("src/main/newroom/a.ts", 'import { x } from "../platform/regularFile.js";')[0]).toContain("src/main/newroom is a room scripts/mainRooms.ts does not know");
  });

  it("orders the rooms so that imports go one way: a row names only rooms above it", () => {
    const order = Object.keys(MainRooms);
    for (const [room, allowed] of Object.entries(MainRooms)) {
      for (const other of allowed) expect(order.indexOf(other), `${room} -> ${other}`).toBeLessThan(order.indexOf(room));
    }
    expect(roomOf("src/main/index.ts")).toBe("(entry)");
    expect(roomOf("src/main/transport/ipc/registerIpc.ts")).toBe("transport/ipc");
  });
});

describe("history/'s files", () => {
  it("finds each knot of files that import one another, as a shortest circle from its first file", () => {
    const imports = new Map<string, string[]>([
      ["a", ["b"]],
      ["b", ["c", "d"]],
      ["c", ["a"]],
      ["d", []],
      ["e", ["e"]],
      ["f", ["g"]],
      ["g", ["f", "d"]],
    ]);
    expect(importCycles(imports)).toEqual([["a", "b", "c", "a"], ["e", "e"], ["f", "g", "f"]]);
    expect(importCycles(new Map([["a", ["b", "outside"]], ["b", []]]))).toEqual([]);
  });

  it("fails a circle among history's files (type imports too) at the import that starts it, and passes one-way imports", () => {
    const sources = new Map([
      ["src/main/history/diskMapper.ts", 'import { x } from "../platform/a.js";\nimport type { LineInserts } from "./lineInserts.js";\n'],
      ["src/main/history/lineInserts.ts", 'import { findForkCards } from "./forkCards.js";\n'],
      ["src/main/history/forkCards.ts", 'export { y } from "./diskMapper.js";\n'],
      ["src/main/history/index.ts", 'export { DiskMapper } from "./diskMapper.js";\n'],
      ["src/main/core/a.ts", 'import { b } from "./b.js";\n'],
      ["src/main/core/b.ts", 'import { a } from "./a.js";\n'],
    ]);
    expect(checkRoomCycles(sources)).toEqual([
      {
        file: "src/main/history/diskMapper.ts",
        line: 2,
        message: "src/main/history's files import one another in a circle (diskMapper.ts → lineInserts.ts → forkCards.ts → diskMapper.ts): move what they share into a file of its own (scripts/mainRooms.ts)",
      },
    ]);
    sources.set("src/main/history/forkCards.ts", 'import { y } from "./lineInserts.js";\n');
    sources.set("src/main/history/lineInserts.ts", "export const z = 1;\n");
    expect(checkRoomCycles(sources)).toEqual([]);
  });
});

describe("checkTree and the command", () => {
  const tempDir = tempDirs("baton-boundaries-", "all");
  let root = "";
  beforeAll(async () => {
    root = tempDir();
    await mkdir(path.join(root, "src/shared"), { recursive: true });
    await mkdir(path.join(root, "src/main"), { recursive: true });
    await writeFile(path.join(root, "src/shared/ok.ts"), "export const x = 1;\n");
    await writeFile(path.join(root, "src/main/ok.ts"), 'import fs from "node:fs";\nexport { fs };\n');
  });

  it("exits 0 with a one-line summary on a clean tree and 1 with file:line lines on a dirty one", async () => {
    const run = promisify(execFile);
    const script = path.join(repoRoot, "scripts/checkBoundaries.ts");
    const clean = await run(process.execPath, ["--import", "tsx", script, "--root", root], { cwd: repoRoot });
    expect(clean.stdout).toMatch(/^boundaries: OK, 2 file\(s\)/);

    await writeFile(path.join(root, "src/shared/bad.ts"), 'export {};\nimport { app } from "electron";\n');
    expect((await checkTree(root)).violations).toHaveLength(1);
    const dirty = await run(process.execPath, ["--import", "tsx", script, "--root", root], { cwd: repoRoot }).then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    );
    expect(dirty?.code).toBe(1);
    expect(dirty?.stderr).toContain('src/shared/bad.ts:2: src/shared must not import "electron"');
  }, 60_000); // two real Node processes, on a shared 2-core machine
});
