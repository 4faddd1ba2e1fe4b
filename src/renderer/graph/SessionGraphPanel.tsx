// The Session graph panel (issue 24): the conductor and every subagent as nodes, spawn edges from
// caller to callee, laid out by dagre and drawn by React Flow. Live tabs follow the app state; restored
// tabs load their nested agents (useRestoredAgents). Clicking a node selects it everywhere, as a
// Hierarchy click does: the app state's selection (Inspector, Hierarchy) and a scroll request
// (Transcript, which opens the cards around it).
import { useEffect, useRef, type RefObject } from "react";
import { Controls, MiniMap, Panel, ReactFlow, ReactFlowProvider, useReactFlow } from "@xyflow/react";
import "@xyflow/react/dist/style.css";
import { ConductorNodeId } from "../../shared/sessionGraph.js";
import { GraphNodeHeight, GraphNodeWidth } from "../../shared/sessionGraphLayout.js";
import { useApp } from "../state/appState.js";
import { GraphEdgeTypes, GraphNodeTypes } from "./GraphNodes.js";
import { useRestoredAgents } from "./useRestoredAgents.js";
import { useLaidOutGraph, useStructureKey, type FlowEdge, type FlowNode, type LaidOutGraph } from "./useGraphStructure.js";

/** Past this many nodes only those in view are mounted, and a minimap shows where the view is. */
const LargeGraph = 60;
const FitOptions = { padding: 0.12, maxZoom: 1, minZoom: 0.1 } as const;

export function SessionGraphPanel() {
  const tabId = useApp((s) => s.activeTabId);
  if (tabId === undefined) return <div className="empty">No session.</div>;
  return (
    <ReactFlowProvider key={tabId}>
      <SessionGraph tabId={tabId} />
    </ReactFlowProvider>
  );
}

function SessionGraph({ tabId }: { tabId: string }) {
  const structure = useStructureKey(tabId);
  useRestoredAgents(tabId, structure);
  const graph = useLaidOutGraph(tabId, structure);
  const userMoved = useRef(false);
  const pane = useRef<HTMLDivElement>(null);
  useFitUntilMoved(graph, pane, userMoved);
  useRevealSelection(tabId, graph, pane, userMoved);
  if (graph === undefined) return <div className="empty">Laying out…</div>;
  const large = graph.nodes.length > LargeGraph;
  return (
    <div className="session-graph" ref={pane} data-nodes={graph.nodes.length} data-layout-ms={graph.layoutMs}>
      <ReactFlow
        nodes={graph.nodes as FlowNode[]}
        edges={graph.edges as FlowEdge[]}
        nodeTypes={GraphNodeTypes}
        edgeTypes={GraphEdgeTypes}
        fitView
        fitViewOptions={FitOptions}
        minZoom={0.05}
        maxZoom={1.5}
        onlyRenderVisibleElements={large}
        nodesDraggable={false}
        nodesConnectable={false}
        nodesFocusable={false}
        edgesFocusable={false}
        elementsSelectable={false}
        zoomOnDoubleClick={false}
        deleteKeyCode={null}
        colorMode="dark"
        proOptions={{ hideAttribution: true }}
        onMoveStart={(event) => {
          // Only a person's pan or zoom has an event; then new agents no longer refit the view.
          if (event !== null) userMoved.current = true;
        }}
      >
        <Controls showInteractive={false} fitViewOptions={FitOptions} />
        {large ? <MiniMap pannable zoomable nodeColor="#5a5a5a" maskColor="rgba(0, 0, 0, 0.55)" /> : null}
        {graph.nodes.length === 1 ? <Panel position="top-center" className="dim">No subagents yet.</Panel> : null}
      </ReactFlow>
    </div>
  );
}

/** New agents and a resized panel refit the view, until the person pans or zooms it themselves. */
function useFitUntilMoved(graph: LaidOutGraph | undefined, pane: RefObject<HTMLDivElement | null>, userMoved: RefObject<boolean>): void {
  const flow = useReactFlow();
  useEffect(() => {
    const element = pane.current;
    if (graph === undefined || element === null) return;
    let frame = 0;
    const fit = (): void => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => {
        if (!userMoved.current) void flow.fitView(FitOptions);
      });
    };
    fit();
    const observer = new ResizeObserver(fit);
    observer.observe(element);
    return () => {
      observer.disconnect();
      cancelAnimationFrame(frame);
    };
  }, [graph]);
}

/** Below this zoom a node's text is too small to read. */
const ReadableZoom = 0.6;

/**
 * A node selected elsewhere (Hierarchy, a card) is brought into view, at a zoom that reads, when
 * it is out of view or too small; from then on the view stays where the person asked for it.
 */
function useRevealSelection(tabId: string, graph: LaidOutGraph | undefined, pane: RefObject<HTMLDivElement | null>, userMoved: RefObject<boolean>): void {
  const flow = useReactFlow();
  const selected = useApp((s) => (s.selection?.tabId === tabId ? s.selection.blockId : undefined));
  useEffect(() => {
    const node = selected === undefined || selected === ConductorNodeId ? undefined : graph?.nodes.find((n) => n.id === selected);
    const element = pane.current;
    if (node === undefined || element === null) return;
    const { x, y, zoom } = flow.getViewport();
    const left = node.position.x * zoom + x;
    const top = node.position.y * zoom + y;
    const inView = left >= 0 && top >= 0 && left + GraphNodeWidth * zoom <= element.clientWidth && top + GraphNodeHeight * zoom <= element.clientHeight;
    if (inView && zoom >= ReadableZoom) return;
    userMoved.current = true;
    void flow.setCenter(node.position.x + GraphNodeWidth / 2, node.position.y + GraphNodeHeight / 2, { zoom: Math.max(zoom, ReadableZoom), duration: 200 });
  }, [selected, graph]);
}
