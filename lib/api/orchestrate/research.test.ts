import { describe, expect, it } from "vitest";
import { CASCADE_KIND, plannedAgents, SWARM_KIND } from "./research.ts";

describe("plannedAgents", () => {
  it("counts the tree's nodes: workers, a synthesizer per five, the summary; or searchers and the merge", () => {
    expect(plannedAgents(CASCADE_KIND, 8)).toBe(8 + 2 + 1);
    expect(plannedAgents(CASCADE_KIND, 5)).toBe(5 + 1 + 1);
    expect(plannedAgents(SWARM_KIND, 5)).toBe(6);
  });
});
