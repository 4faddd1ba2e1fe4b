import { spawn } from "node:child_process";
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createStdinWriter } from "../../src/main/cli/stdinWriter.js";

/** A pipe whose reader takes chunks only when the test says so. */
function slowPipe(highWaterMark: number) {
  const received: string[] = [];
  const callbacks: (() => void)[] = [];
  const stream = new Writable({
    highWaterMark,
    write(chunk: Buffer, _enc, callback) {
      received.push(chunk.toString());
      callbacks.push(callback);
    },
  });
  const release = () => {
    while (callbacks.length) callbacks.shift()!();
  };
  return { stream, received, release };
}

describe("stdin writer", () => {
  it("queues while the pipe is full and resumes on drain, in order", async () => {
    const { stream, received, release } = slowPipe(8);
    const written: string[] = [];
    const writer = createStdinWriter(stream, { onWritten: (line) => written.push(line) });
    for (let i = 0; i < 5; i++) expect(writer.writeLine(`{"n":${i}}`)).toBe(true);
    // The first line fills the 8-byte buffer: the rest wait in Baton's queue, not in the stream.
    expect(writer.queuedLines).toBe(4);
    expect(stream.writableLength).toBeLessThanOrEqual(16);
    for (let round = 0; round < 10 && writer.queuedLines > 0; round++) {
      release();
      await new Promise((resolve) => setImmediate(resolve));
    }
    release();
    expect(writer.queuedLines).toBe(0);
    expect(received.join("")).toBe([0, 1, 2, 3, 4].map((i) => `{"n":${i}}\n`).join(""));
    expect(written).toHaveLength(5);
  });

  it("end() closes the pipe only after the queue is flushed", async () => {
    const { stream, received, release } = slowPipe(4);
    const writer = createStdinWriter(stream);
    writer.writeLine("aaaa");
    writer.writeLine("bbbb");
    writer.end();
    expect(stream.writableEnded).toBe(false);
    expect(writer.writeLine("late")).toBe(false);
    for (let round = 0; round < 10 && !stream.writableEnded; round++) {
      release();
      await new Promise((resolve) => setImmediate(resolve));
    }
    release();
    expect(stream.writableEnded).toBe(true);
    expect(received.join("")).toBe("aaaa\nbbbb\n");
  });

  it("a broken pipe (EPIPE) is reported once, never thrown, and later writes return false", async () => {
    const errors: string[] = [];
    const stream = new Writable({
      write(_chunk, _enc, callback) {
        const error = Object.assign(new Error("write EPIPE"), { code: "EPIPE" });
        callback(error);
      },
    });
    const writer = createStdinWriter(stream, { onError: (e) => errors.push(e.code ?? "") });
    writer.writeLine("one");
    await new Promise((resolve) => setImmediate(resolve));
    expect(errors).toEqual(["EPIPE"]);
    expect(writer.closed).toBe(true);
    expect(writer.writeLine("two")).toBe(false);
  });

  it("writing to a process that already exited does not crash", async () => {
    const child = spawn(process.execPath, ["-e", "process.exit(0)"], { stdio: ["pipe", "ignore", "ignore"] });
    const errors: string[] = [];
    const writer = createStdinWriter(child.stdin, { onError: (e) => errors.push(e.code ?? "error") });
    await new Promise((resolve) => child.on("close", resolve));
    const big = "x".repeat(256 * 1024);
    for (let i = 0; i < 4; i++) writer.writeLine(big);
    await new Promise((resolve) => setTimeout(resolve, 50));
    writer.dispose();
    // Either the pipe was already known closed (writes refused) or the write failed with EPIPE.
    expect(writer.writeLine("after")).toBe(false);
    expect(errors.every((code) => code === "EPIPE" || code === "ERR_STREAM_DESTROYED")).toBe(true);
  });
});
