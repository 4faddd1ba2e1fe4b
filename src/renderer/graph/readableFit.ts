// Where the session graph's view goes when it fits itself to its panel: the whole graph when it can
// be shown at a zoom whose text still reads, else that zoom and the top of the graph, centred on the
// conductor, with the rest a scroll away. A fit never shrinks a node's text below ReadableFontPx.

/** The smallest text on a node at zoom 1, in CSS pixels (graph.css sets every node font at least this). */
export const SmallestNodeFontPx = 12;
/** The smallest text a person is asked to read on screen. */
export const ReadableFontPx = 11;
/** The view never zooms out past this: the smallest node text stays ReadableFontPx on screen. */
export const ReadableZoom = ReadableFontPx / SmallestNodeFontPx;
/** A fit does not blow a small graph up past its natural size. */
export const MaxFitZoom = 1;
/** Room kept between the graph and the panel's edges, in screen pixels. */
export const FitPadding = 16;

export interface Box {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

/** React Flow's viewport: the graph point (0, 0) is drawn at (x, y), scaled by zoom. */
export interface Viewport {
  readonly x: number;
  readonly y: number;
  readonly zoom: number;
}

/** The box around nodes that all have the same size. */
export function graphBounds(points: readonly { readonly x: number; readonly y: number }[], nodeWidth: number, nodeHeight: number): Box {
  if (points.length === 0) return { x: 0, y: 0, width: 0, height: 0 };
  let left = Infinity;
  let top = Infinity;
  let right = -Infinity;
  let bottom = -Infinity;
  for (const p of points) {
    left = Math.min(left, p.x);
    top = Math.min(top, p.y);
    right = Math.max(right, p.x + nodeWidth);
    bottom = Math.max(bottom, p.y + nodeHeight);
  }
  return { x: left, y: top, width: right - left, height: bottom - top };
}

/** The zoom at which `bounds` just fits the pane with its padding (unclamped). */
export function zoomToFit(bounds: Box, paneWidth: number, paneHeight: number): number {
  const width = Math.max(1, paneWidth - 2 * FitPadding);
  const height = Math.max(1, paneHeight - 2 * FitPadding);
  if (bounds.width <= 0 || bounds.height <= 0) return MaxFitZoom;
  return Math.min(width / bounds.width, height / bounds.height);
}

/** Whether the whole graph can be shown at once with its text readable. */
export function fitsReadably(bounds: Box, paneWidth: number, paneHeight: number): boolean {
  return zoomToFit(bounds, paneWidth, paneHeight) >= ReadableZoom;
}

/**
 * The fitted view: the whole graph centred, at most at MaxFitZoom, when it fits readably; else
 * ReadableZoom with the graph's top edge at the top and `anchorX` (the conductor's centre) in the
 * middle, moved no further than keeps the graph filling the pane's width.
 */
export function readableViewport(bounds: Box, anchorX: number | undefined, paneWidth: number, paneHeight: number): Viewport {
  const zoom = Math.max(ReadableZoom, Math.min(MaxFitZoom, zoomToFit(bounds, paneWidth, paneHeight)));
  const x = axis(bounds.x, bounds.width, anchorX ?? bounds.x + bounds.width / 2, paneWidth, zoom, "centre");
  const y = axis(bounds.y, bounds.height, bounds.y, paneHeight, zoom, "start");
  return { x, y, zoom };
}

/** Where graph coordinate `start` lands along one axis: centred when it fits, else at `anchor`, clamped to the graph's extent. */
function axis(start: number, length: number, anchor: number, pane: number, zoom: number, overflow: "centre" | "start"): number {
  if (length * zoom <= pane - 2 * FitPadding) return pane / 2 - (start + length / 2) * zoom;
  const wanted = overflow === "start" ? FitPadding - start * zoom : pane / 2 - anchor * zoom;
  const most = FitPadding - start * zoom;
  const least = pane - FitPadding - (start + length) * zoom;
  return Math.min(most, Math.max(least, wanted));
}
