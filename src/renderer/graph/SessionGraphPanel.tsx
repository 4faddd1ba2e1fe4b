// The Session graph panel (issue 24): the conductor and every subagent as nodes, spawn edges from
// caller to callee, laid out by dagre and drawn by React Flow. Live tabs follow the app state; restored
// tabs load their nested agents (useRestoredAgents). Clicking a node selects it everywhere, as a
// Hierarchy click does: the app state's selection (Inspector, Hierarchy) and a scroll request
// (Transcript, which opens the cards around it).
//
// It opens readable (issue 34): the view never zooms out past the zoom at which node text is
// ReadableFontPx on screen; a graph bigger than that is scrolled (the wheel pans, Ctrl+wheel zooms)
// and gets a minimap in a strip of its own beside the graph, so the minimap never covers a node.
import { useEffect, useMemo, useRef, useState, type RefObject } from "react";
import { ControlButton, Controls, MiniMap, Panel, ReactFlow, ReactFlowProvider, useReactFlow } from "@xyflow/react";
import "@xyflow/react/dist/style.css";
import { ConductorNodeId } from "../../shared/sessionGraph.js";
import { GraphNodeHeight, GraphNodeWidth } from "../../shared/sessionGraphLayout.js";
import { registerKeyHelp } from "../keys/keyHelp.js";
import { maximisePanel } from "../layout/panels.js";
import { useApp } from "../state/appState.js";
import { useTheme } from "../theme/theme.js";
import { GraphEdgeTypes, GraphNodeTypes } from "./GraphNodes.js";
import { fitsReadably, graphBounds, readableViewport, ReadableZoom, type Box } from "./readableFit.js";
import { useElementSize, type Size } from "./useElementSize.js";
import { useRestoredAgents } from "./useRestoredAgents.js";
import { useLaidOutGraph, useStructureKey, type FlowEdge, type FlowNode, type LaidOutGraph } from "./useGraphStructure.js";
import "./graph.css";

/** Past this many nodes only those in view are mounted. */
const LargeGraph = 60;
/** The minimap's strip: beside the graph in a wide panel, under it in a tall one; left out of a panel too small to share. */
const MinimapWidth = 180;
const MinimapHeight = 120;
const MinStripPanel = { width: 480, height: 320 } as const;

registerKeyHelp({
  where: "Graph",
  keys: [
    { keys: ["Wheel", "Drag"], does: "Scroll the graph" },
    { keys: ["Mod+Wheel"], does: "Zoom (never below readable text)" },
  ],
});

export function SessionGraphPanel() {
  const tabId = useApp((s) => s.activeTabId);
  if (tabId === undefined) return <div className="empty">No session.</div>;
  return (
    <ReactFlowProvider key={tabId}>
      <SessionGraph tabId={tabId} />
    </ReactFlowProvider>
  );
}

/** Where the minimap goes in a panel of this size, if anywhere: only a graph that does not fit readably has one. */
function minimapPlace(bounds: Box, panel: Size): "right" | "bottom" | undefined {
  if (panel.width === 0 || fitsReadably(bounds, panel.width, panel.height)) return undefined;
  if (panel.width >= panel.height) return panel.width >= MinStripPanel.width ? "right" : undefined;
  return panel.height >= MinStripPanel.height ? "bottom" : undefined;
}

function SessionGraph({ tabId }: { tabId: string }) {
  const structure = useStructureKey(tabId);
  useRestoredAgents(tabId, structure);
  const graph = useLaidOutGraph(tabId, structure);
  const userMoved = useRef(false);
  const { theme } = useTheme();
  const [panelElement, setPanelElement] = useState<HTMLDivElement | null>(null);
  const [flowElement, setFlowElement] = useState<HTMLDivElement | null>(null);
  const panel = useElementSize(panelElement);
  const flowSize = useElementSize(flowElement);
  const bounds = useMemo(() => graphBounds(graph?.nodes.map((n) => n.position) ?? [], GraphNodeWidth, GraphNodeHeight), [graph]);
  const fit = useReadableFit(graph, bounds, flowSize, userMoved);
  useRevealSelection(tabId, graph, flowElement, userMoved);
  if (graph === undefined) return <div className="empty">Laying out…</div>;
  const large = graph.nodes.length > LargeGraph;
  const minimap = minimapPlace(bounds, panel);
  return (
    <div
      className={`session-graph${minimap !== undefined ? ` minimap-${minimap}` : ""}`}
      ref={setPanelElement}
      data-nodes={graph.nodes.length}
      data-layout-ms={graph.layoutMs}
    >
      <div className="sg-flow" ref={setFlowElement}>
        <ReactFlow
          nodes={graph.nodes as FlowNode[]}
          edges={graph.edges as FlowEdge[]}
          nodeTypes={GraphNodeTypes}
          edgeTypes={GraphEdgeTypes}
          minZoom={ReadableZoom}
          maxZoom={1.5}
          panOnScroll
          zoomOnScroll={false}
          zoomOnPinch
          onlyRenderVisibleElements={large}
          nodesDraggable={false}
          nodesConnectable={false}
          nodesFocusable={false}
          edgesFocusable={false}
          elementsSelectable={false}
          zoomOnDoubleClick={false}
          deleteKeyCode={null}
          colorMode={theme}
          proOptions={{ hideAttribution: true }}
          onMoveStart={(event) => {
            // Only a person's pan or zoom has an event; then new agents and resizes no longer refit the view.
            if (event !== null) userMoved.current = true;
          }}
        >
          <Controls showInteractive={false} showFitView={false}>
            <ControlButton onClick={fit} title="Fit the graph to the panel" aria-label="Fit graph">
              <svg viewBox="0 0 12 12" aria-hidden="true">
                <path fillRule="evenodd" d="M1 1h10v10H1zM2.5 2.5v7h7v-7zM4.5 4.5h3v3h-3z" />
              </svg>
            </ControlButton>
            <ControlButton
              onClick={() => {
                userMoved.current = false;
                maximisePanel("graph");
              }}
              title="Maximise the graph, or restore the layout (also a double-click on its tab)"
              aria-label="Maximise graph"
            >
              <svg viewBox="0 0 12 12" aria-hidden="true">
                <path d="M1 1h4v1.5H2.5V5H1zM7 1h4v4H9.5V2.5H7zM11 7v4H7V9.5h2.5V7zM5 11H1V7h1.5v2.5H5z" />
              </svg>
            </ControlButton>
          </Controls>
          {graph.nodes.length === 1 ? <Panel position="top-center" className="dim">No subagents yet.</Panel> : null}
        </ReactFlow>
      </div>
      {minimap !== undefined ? (
        <div className="sg-minimap">
          <MiniMap
            pannable
            zoomable
            ariaLabel="Minimap of the session graph"
            style={{ width: MinimapWidth, height: MinimapHeight }}
            bgColor="var(--graph-minimap-bg)"
            nodeColor="var(--graph-minimap-node)"
            maskColor="var(--graph-minimap-mask)"
            maskStrokeColor="var(--accent)"
            maskStrokeWidth={1}
          />
        </div>
      ) : null}
    </div>
  );
}

/**
 * Fits the view readably (readableFit.ts) when the graph or the pane's size changes, until the
 * person pans or zooms; returns the fit for the Fit button, which also hands the view back to it.
 */
function useReadableFit(graph: LaidOutGraph | undefined, bounds: Box, pane: Size, userMoved: RefObject<boolean>): () => void {
  const flow = useReactFlow();
  const conductorX = useMemo(() => {
    const conductor = graph?.nodes.find((n) => n.id === ConductorNodeId);
    return conductor === undefined ? undefined : conductor.position.x + GraphNodeWidth / 2;
  }, [graph]);
  const apply = (): void => {
    if (pane.width === 0 || pane.height === 0) return;
    void flow.setViewport(readableViewport(bounds, conductorX, pane.width, pane.height));
  };
  useEffect(() => {
    if (graph === undefined || userMoved.current) return;
    // A frame later: React Flow sets up its pan and zoom in an effect of its own.
    const frame = requestAnimationFrame(apply);
    return () => cancelAnimationFrame(frame);
  }, [graph, bounds, pane.width, pane.height]);
  return () => {
    userMoved.current = false;
    apply();
  };
}

/**
 * A node selected elsewhere (Hierarchy, a card) is brought into view when it is out of view;
 * from then on the view stays where the person asked for it.
 */
function useRevealSelection(tabId: string, graph: LaidOutGraph | undefined, pane: HTMLElement | null, userMoved: RefObject<boolean>): void {
  const flow = useReactFlow();
  const selected = useApp((s) => (s.selection?.tabId === tabId ? s.selection.blockId : undefined));
  useEffect(() => {
    const node = selected === undefined || selected === ConductorNodeId ? undefined : graph?.nodes.find((n) => n.id === selected);
    if (node === undefined || pane === null) return;
    const { x, y, zoom } = flow.getViewport();
    const left = node.position.x * zoom + x;
    const top = node.position.y * zoom + y;
    const inView = left >= 0 && top >= 0 && left + GraphNodeWidth * zoom <= pane.clientWidth && top + GraphNodeHeight * zoom <= pane.clientHeight;
    if (inView) return;
    userMoved.current = true;
    void flow.setCenter(node.position.x + GraphNodeWidth / 2, node.position.y + GraphNodeHeight / 2, { zoom, duration: 200 });
  }, [selected, graph]);
}
