"use client";

import { Background, Controls, MarkerType, ReactFlow, useReactFlow, type Edge, type Node } from "@xyflow/react";
import "@xyflow/react/dist/style.css";
import { useEffect, useMemo } from "react";
import { formatMs } from "./research-result";
import {
  edgesOf,
  layoutTree,
  NODE_HEIGHT,
  NODE_WIDTH,
  stateWord,
  type AgentNode,
  type AgentState,
} from "./research-tree";

const STATE_STYLE: Record<AgentState, { background: string; border: string }> = {
  waiting: { background: "#f1f5f9", border: "2px dashed #64748b" },
  running: { background: "#dbeafe", border: "2px solid #1d4ed8" },
  done: { background: "#dcfce7", border: "2px solid #15803d" },
  failed: { background: "#fee2e2", border: "2px solid #b91c1c" },
};

const short = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

function Label({ agent }: { agent: AgentNode }) {
  const timing = agent.durationMs !== undefined ? ` · ${formatMs(agent.durationMs)}` : "";
  return (
    <div className="flex flex-col gap-0.5 text-left">
      <span className="truncate font-semibold">{agent.id}</span>
      {/* The state and time first: the title under them may be cut at the card's edge, never they. */}
      <span data-state={agent.state}>
        {stateWord(agent.state)}
        {timing}
      </span>
      {agent.title !== agent.id && <span className="line-clamp-2">{short(agent.title, 48)}</span>}
    </div>
  );
}

/** New agents widen the tree: refit it whenever the count changes, so all of it stays in view. */
function FitOnGrowth({ count }: { count: number }) {
  const { fitView } = useReactFlow();
  useEffect(() => {
    const frame = requestAnimationFrame(() => void fitView({ padding: 0.1 }));
    return () => cancelAnimationFrame(frame);
  }, [count, fitView]);
  return null;
}

/** The agents as a tree laid out by dagre, coloured and labelled by state. */
export function ResearchGraph({ agents }: { agents: AgentNode[] }) {
  const edgeList = useMemo(() => edgesOf(agents), [agents]);
  const positions = useMemo(() => layoutTree(agents, edgeList), [agents, edgeList]);
  const nodes = useMemo<Node[]>(
    () =>
      agents.map((a) => ({
        id: a.id,
        position: positions.get(a.id)!,
        data: { label: <Label agent={a} /> },
        ariaLabel: `${a.role} ${a.id}: ${a.title}. ${stateWord(a.state)}${a.error ? `: ${a.error}` : ""}`,
        className: "research-node",
        style: {
          ...STATE_STYLE[a.state],
          width: NODE_WIDTH,
          height: NODE_HEIGHT,
          color: "#0f172a",
          fontSize: 11,
          overflow: "hidden",
          padding: 6,
        },
        connectable: false,
        draggable: false,
      })),
    [agents, positions],
  );
  const edges = useMemo<Edge[]>(
    () =>
      edgeList.map((e) => ({
        ...e,
        markerEnd: { type: MarkerType.ArrowClosed },
        animated: agents.find((a) => a.id === e.source)?.state === "running",
      })),
    [edgeList, agents],
  );
  return (
    <div
      className="h-[28rem] w-full rounded-xl border border-slate-300 bg-slate-50 dark:border-slate-700"
      data-testid="research-graph"
    >
      <ReactFlow nodes={nodes} edges={edges} fitView nodesConnectable={false} minZoom={0.2}>
        <Background />
        <Controls showInteractive={false} />
        <FitOnGrowth count={agents.length} />
      </ReactFlow>
    </div>
  );
}
