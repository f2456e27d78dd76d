import type { Metadata } from "next";
import { ConsoleShell } from "@/components/console/console-shell";
import { DatavisConsole } from "@/components/console/datavis/datavis-console";

export const metadata: Metadata = { title: "DataVis console · Unified API Gateway" };

export default function DatavisPage() {
  return (
    <ConsoleShell
      path="/console/datavis"
      title="DataVis console"
      intro="Browse the gallery of Vega-Lite charts by category, draw each over its dataset and look at the rows behind it."
    >
      <DatavisConsole />
    </ConsoleShell>
  );
}
