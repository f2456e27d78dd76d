"use client";

import { Background, Controls, MarkerType, ReactFlow, type Edge, type Node } from "@xyflow/react";
import "@xyflow/react/dist/style.css";
import { useMemo } from "react";
import { layoutStory, NODE_HEIGHT, NODE_WIDTH, type Story } from "@/lib/console/story.ts";

const TYPE_STYLE = {
  start: { background: "#e0e7ff", border: "2px solid #4338ca" },
  story: { background: "#ffffff", border: "2px solid #64748b" },
  ending: { background: "#fef3c7", border: "2px solid #b45309" },
};

/** The story as a graph laid out by dagre; clicking a node moves the reader there. */
export function StoryGraph({
  story,
  current,
  onSelect,
}: {
  story: Story;
  current: string;
  onSelect: (id: string) => void;
}) {
  const positions = useMemo(() => layoutStory(story), [story]);
  const nodes = useMemo<Node[]>(
    () =>
      story.nodes.map((n) => ({
        id: n.id,
        position: positions.get(n.id)!,
        data: { label: n.text.length > 90 ? `${n.text.slice(0, 87)}…` : n.text },
        ariaLabel: `${n.type} node ${n.id}: ${n.text}`,
        className: "story-node",
        style: {
          ...TYPE_STYLE[n.type],
          width: NODE_WIDTH,
          height: NODE_HEIGHT,
          color: "#0f172a",
          fontSize: 12,
          overflow: "hidden",
          boxShadow: n.id === current ? "0 0 0 4px #16a34a" : undefined,
        },
        connectable: false,
        draggable: false,
      })),
    [story, positions, current],
  );
  const edges = useMemo<Edge[]>(
    () =>
      story.connections.map((c, i) => ({
        id: `e${i}`,
        source: c.from,
        target: c.to,
        label: c.label,
        markerEnd: { type: MarkerType.ArrowClosed },
        labelStyle: { fill: "#0f172a", fontSize: 11 },
      })),
    [story],
  );
  return (
    <div
      className="h-[32rem] w-full rounded-xl border border-slate-300 bg-slate-50 dark:border-slate-700"
      data-testid="story-graph"
    >
      <ReactFlow
        nodes={nodes}
        edges={edges}
        onNodeClick={(_, node) => onSelect(node.id)}
        fitView
        nodesConnectable={false}
        proOptions={{ hideAttribution: false }}
      >
        <Background />
        <Controls showInteractive={false} />
      </ReactFlow>
    </div>
  );
}
