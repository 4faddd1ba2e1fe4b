// The session graph's fit: the whole graph when its text stays readable, else the readable zoom
// at the top of the graph, centred on the conductor, never past the graph's edges.
import { describe, expect, it } from "vitest";
import { FitPadding, fitsReadably, graphBounds, MaxFitZoom, ReadableFontPx, ReadableZoom, readableViewport, SmallestNodeFontPx, zoomToFit } from "../../src/renderer/graph/readableFit.js";

describe("the graph's readable fit", () => {
  it("keeps the smallest node text at the readable size on screen", () => {
    expect(SmallestNodeFontPx * ReadableZoom).toBeCloseTo(ReadableFontPx);
    expect(ReadableZoom).toBeLessThanOrEqual(MaxFitZoom);
  });

  it("bounds nodes of one size", () => {
    expect(graphBounds([{ x: 10, y: 20 }, { x: -50, y: 100 }], 200, 60)).toEqual({ x: -50, y: 20, width: 260, height: 140 });
    expect(graphBounds([], 200, 60)).toEqual({ x: 0, y: 0, width: 0, height: 0 });
  });

  it("centres a small graph at its natural size, not blown up", () => {
    const bounds = { x: 0, y: 0, width: 200, height: 60 };
    const view = readableViewport(bounds, 100, 1000, 400);
    expect(view.zoom).toBe(MaxFitZoom);
    expect(view.x).toBe(400);
    expect(view.y).toBe(170);
  });

  it("shrinks a graph that fits readably to show all of it", () => {
    const bounds = { x: 0, y: 0, width: 1900, height: 300 };
    expect(fitsReadably(bounds, 1800, 400)).toBe(true);
    const view = readableViewport(bounds, 950, 1800, 400);
    expect(view.zoom).toBeCloseTo((1800 - 2 * FitPadding) / 1900);
    expect(view.zoom).toBeGreaterThanOrEqual(ReadableZoom);
  });

  it("stops at the readable zoom for a big graph, showing its top, centred on the conductor", () => {
    const bounds = { x: 0, y: 0, width: 8000, height: 2000 };
    expect(fitsReadably(bounds, 1200, 300)).toBe(false);
    expect(zoomToFit(bounds, 1200, 300)).toBeLessThan(ReadableZoom);
    const view = readableViewport(bounds, 4000, 1200, 300);
    expect(view.zoom).toBe(ReadableZoom);
    expect(view.y).toBe(FitPadding);
    // The conductor's centre is in the middle of the pane.
    expect(4000 * view.zoom + view.x).toBeCloseTo(600);
  });

  it("does not scroll past the graph's edge to centre a conductor near it", () => {
    const bounds = { x: 0, y: 0, width: 8000, height: 2000 };
    const left = readableViewport(bounds, 100, 1200, 300);
    expect(left.x).toBe(FitPadding);
    const right = readableViewport(bounds, 7950, 1200, 300);
    expect(8000 * right.zoom + right.x).toBeCloseTo(1200 - FitPadding);
  });

  it("centres an axis that fits while the other scrolls", () => {
    const tall = { x: 0, y: 0, width: 400, height: 5000 };
    const view = readableViewport(tall, 200, 1200, 300);
    expect(view.zoom).toBe(ReadableZoom);
    expect(200 * view.zoom + view.x).toBeCloseTo(600);
    expect(view.y).toBe(FitPadding);
  });
});
