import type { ReactNode } from "react";
import type { PriceRow } from "@/lib/usage/prices";
import { DataTable } from "./data-table";

const usd = (n: number) => `$${n.toLocaleString("en", { maximumFractionDigits: 4 })}`;

/** The effective price table; `actions` adds a cell per row (the operator's edit form). */
export function PriceTable({ rows, actions }: { rows: PriceRow[]; actions?: (row: PriceRow) => ReactNode }) {
  return (
    <DataTable
      margin="mt-3"
      label="Model prices"
      headers={[
        "Provider",
        "Model",
        "Input / 1M tokens",
        "Output / 1M tokens",
        "Set by",
        ...(actions ? ["Change"] : []),
      ]}
    >
      {rows.map((r) => (
        <tr key={`${r.provider}/${r.model}`} className="border-t border-slate-200 dark:border-slate-800">
          <td className="px-3 py-2">{r.provider}</td>
          <td className="px-3 py-2">
            <code>{r.model}</code>
          </td>
          <td className="px-3 py-2">{usd(r.input)}</td>
          <td className="px-3 py-2">{usd(r.output)}</td>
          <td className="px-3 py-2">{r.source === "operator" ? "operator" : "default"}</td>
          {actions && <td className="px-3 py-2">{actions(r)}</td>}
        </tr>
      ))}
    </DataTable>
  );
}
