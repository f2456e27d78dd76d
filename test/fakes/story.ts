type Node = { id: string; text: string; type: "start" | "story" | "ending" };
type Connection = { from: string; to: string; label: string };
export type FakeStory = { title: string; nodes: Node[]; connections: Connection[] };

/**
 * A playable story as a model would answer it: `nodes` in all, `endings` of them endings. The story
 * nodes run in a line from start ("Walk on") to the first ending; each further ending branches off a
 * node of the line ("Turn back"), so every node is reachable and leads to an ending.
 */
export function playableStory(nodes: number, endings = 1, title = "The lighthouse"): FakeStory {
  const line = ["start", ...Array.from({ length: nodes - endings - 1 }, (_, i) => `room-${i + 1}`)];
  const ends = Array.from({ length: endings }, (_, i) => `ending-${i + 1}`);
  return {
    title,
    nodes: [
      { id: "start", type: "start", text: "You stand at the foot of the lighthouse as the storm rolls in." },
      ...line.slice(1).map((id, i) => ({ id, type: "story" as const, text: `You climb to landing ${i + 1}.` })),
      ...ends.map((id, i) => ({ id, type: "ending" as const, text: `The lamp is lit: ending ${i + 1}. The end.` })),
    ],
    connections: [
      ...line.map((from, i) => ({ from, to: line[i + 1] ?? ends[0]!, label: "Walk on" })),
      ...ends.slice(1).map((to, i) => ({ from: line[i % line.length]!, to, label: `Turn back (${i + 2})` })),
    ],
  };
}
