import type { Metadata } from "next";
import { ConsoleShell } from "@/components/console/console-shell";
import { AacConsole } from "@/components/console/aac/aac-console";

export const metadata: Metadata = { title: "AAC sentence builder · Unified API Gateway" };

export default function AacPage() {
  return (
    <ConsoleShell
      path="/console/aac"
      title="AAC sentence builder"
      intro="Type a sentence and get a strip of pictograms, one per word; pick other symbols where there are several, then print it or save it as a PNG."
    >
      <AacConsole />
    </ConsoleShell>
  );
}
