import type { Metadata } from "next";
import { ConsoleShell } from "@/components/console/console-shell";
import { StoryConsole } from "@/components/console/story/story-console";

export const metadata: Metadata = { title: "Story graph · Unified API Gateway" };

export default function StoryPage() {
  return (
    <ConsoleShell
      path="/console/story"
      title="Story graph"
      intro="Generate a branching story or paste one, see it as a graph, and read it by choosing where to go next."
      models="optional"
    >
      <StoryConsole />
    </ConsoleShell>
  );
}
