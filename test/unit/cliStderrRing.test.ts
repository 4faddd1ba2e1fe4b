import { describe, expect, it } from "vitest";
import { createStderrRing } from "../../src/main/cli/stderrRing.js";

describe("stderr ring buffer", () => {
  it("keeps everything while under the bound", () => {
    const ring = createStderrRing(100);
    ring.push(Buffer.from("hello "));
    ring.push(Buffer.from("world"));
    expect(ring.text()).toBe("hello world");
    expect(ring.droppedBytes).toBe(0);
  });

  it("never holds more than maxBytes and keeps the newest bytes", () => {
    const ring = createStderrRing(10);
    for (let i = 0; i < 100; i++) ring.push(Buffer.from(`line ${i}\n`));
    const text = ring.text();
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(10);
    expect(text.endsWith("line 99\n")).toBe(true);
    const total = Array.from({ length: 100 }, (_, i) => `line ${i}\n`).join("").length;
    expect(ring.droppedBytes).toBe(total - 10);
  });

  it("keeps the tail of a single chunk bigger than the bound", () => {
    const ring = createStderrRing(4);
    ring.push(Buffer.from("ab"));
    ring.push(Buffer.from("0123456789"));
    expect(ring.text()).toBe("6789");
    expect(ring.droppedBytes).toBe(8);
  });
});
