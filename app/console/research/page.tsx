import type { Metadata } from "next";
import { ConsoleShell } from "@/components/console/console-shell";
import { ResearchConsole } from "@/components/console/research/research-console";

export const metadata: Metadata = { title: "Research console · Unified API Gateway" };

export default function ResearchPage() {
  return (
    <ConsoleShell
      path="/console/research"
      title="Research console"
      intro="Start a multi-agent research task, watch its agents work as a tree, then read the summary with its sources."
      models="required"
    >
      <ResearchConsole />
    </ConsoleShell>
  );
}
