"use client";

import { useQuery } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { consoleClient, dataOf, v1Json } from "@/lib/console/api.ts";
import {
  columnsOf,
  dataSource,
  filterVisualizations,
  fitToPanel,
  rowsOf,
  withValues,
  type Visualization,
} from "@/lib/console/datavis.ts";
import { ErrorState, Loading } from "../error-state";
import { VegaChart } from "./vega-chart";

const TABLE_ROWS = 100;

function Chart({ vis }: { vis: Visualization }) {
  const source = dataSource(vis.spec);
  const rows = useQuery({
    queryKey: ["datavis-rows", source && "url" in source ? source.url : vis.name],
    queryFn: async () => {
      if (!source) return [];
      if ("values" in source) return source.values as Record<string, unknown>[];
      if (!source.url.startsWith("/v1/"))
        throw new Error(`this chart reads data from outside the gateway (${source.url})`);
      // A URL the spec names at run time (any /v1 data route): not a path the typed client can check.
      return rowsOf(await v1Json<unknown>(source.url), source.property);
    },
  });
  const spec = useMemo(
    () => (rows.data && source ? withValues(vis.spec, rows.data) : fitToPanel(vis.spec)),
    [rows.data, source, vis.spec],
  );
  const columns = useMemo(() => columnsOf(rows.data ?? []), [rows.data]);

  return (
    // min-w-0: a grid item is otherwise as wide as its widest content (the data table), which would
    // push the page sideways on a phone; the table scrolls inside its own region instead.
    <article aria-labelledby="vis-title" className="flex min-w-0 flex-col gap-3">
      <h2 id="vis-title" className="text-xl font-semibold">
        {vis.title}
      </h2>
      <p className="text-slate-700 dark:text-slate-300">{vis.description}</p>
      {vis.dataset && <p className="text-sm text-slate-700 dark:text-slate-300">Dataset: {vis.dataset}</p>}
      {rows.isPending && <Loading label="Loading the data…" />}
      {rows.isError && <ErrorState error={rows.error} what="This chart's data" />}
      {rows.isSuccess && <VegaChart spec={spec} title={vis.title} />}
      {rows.isSuccess && rows.data.length > 0 && (
        <details className="rounded-lg border border-slate-300 p-3 dark:border-slate-700">
          <summary className="cursor-pointer font-medium">
            View data ({rows.data.length.toLocaleString("en")} rows
            {rows.data.length > TABLE_ROWS ? `, first ${TABLE_ROWS} shown` : ""})
          </summary>
          {/* Focusable, so keyboard users can scroll the table too. */}
          <div className="mt-3 max-h-96 overflow-auto" tabIndex={0} role="region" aria-label={`Data of ${vis.title}`}>
            <table className="min-w-full text-left text-sm">
              <thead>
                <tr>
                  {columns.map((c) => (
                    <th key={c} scope="col" className="sticky top-0 bg-slate-100 px-2 py-1 dark:bg-slate-800">
                      {c}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {rows.data.slice(0, TABLE_ROWS).map((row, i) => (
                  <tr key={i} className="border-t border-slate-200 dark:border-slate-800">
                    {columns.map((c) => (
                      <td key={c} className="px-2 py-1">
                        {row[c] === null || row[c] === undefined
                          ? ""
                          : typeof row[c] === "object"
                            ? JSON.stringify(row[c])
                            : String(row[c])}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </details>
      )}
      <details className="rounded-lg border border-slate-300 p-3 dark:border-slate-700">
        <summary className="cursor-pointer font-medium">Vega-Lite spec</summary>
        <pre className="mt-3 max-h-96 overflow-auto text-xs" tabIndex={0} aria-label={`Vega-Lite spec of ${vis.title}`}>
          {JSON.stringify(vis.spec, null, 2)}
        </pre>
      </details>
    </article>
  );
}

const field =
  "rounded-lg border border-slate-400 bg-white px-3 py-2 text-slate-900 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100";

export function DatavisConsole() {
  const [category, setCategory] = useState("");
  const [query, setQuery] = useState("");
  const [selected, setSelected] = useState<string | null>(null);
  // The full list once: categories come from its counts, and filtering happens here without refetching.
  const list = useQuery({
    queryKey: ["datavis-list"],
    queryFn: () => dataOf(consoleClient().GET("/v1/datavis/list")),
  });

  if (list.isPending) return <Loading label="Loading visualizations…" />;
  if (list.isError) return <ErrorState error={list.error} what="DataVis" />;

  const categories = Object.entries(list.data.by_category).sort(([a], [b]) => a.localeCompare(b));
  const shown = filterVisualizations(list.data.visualizations, category, query);
  const current = shown.find((v) => v.name === selected) ?? shown[0];

  return (
    <div className="grid gap-6 lg:grid-cols-[18rem_1fr]">
      <nav aria-label="Visualizations" className="flex min-w-0 flex-col gap-3">
        <label className="flex flex-col gap-1 text-sm font-medium">
          Search
          <input
            type="search"
            className={field}
            value={query}
            maxLength={200}
            placeholder="Title, dataset or topic"
            onChange={(e) => setQuery(e.target.value)}
          />
        </label>
        <label className="flex flex-col gap-1 text-sm font-medium">
          Category
          <select className={field} value={category} onChange={(e) => setCategory(e.target.value)}>
            <option value="">All ({list.data.total})</option>
            {categories.map(([name, count]) => (
              <option key={name} value={name}>
                {name} ({count})
              </option>
            ))}
          </select>
        </label>
        <p role="status" className="text-sm text-slate-700 dark:text-slate-300">
          {shown.length === list.data.total
            ? `${shown.length} visualizations`
            : `${shown.length} of ${list.data.total} visualizations`}
        </p>
        <ul className="flex max-h-[32rem] flex-col gap-1 overflow-y-auto">
          {shown.map((v) => (
            <li key={v.name}>
              <button
                type="button"
                aria-pressed={v.name === current?.name}
                onClick={() => setSelected(v.name)}
                className="w-full rounded-md px-3 py-2 text-left text-sm hover:bg-slate-100 aria-pressed:bg-indigo-700 aria-pressed:text-white dark:hover:bg-slate-800"
              >
                {v.title}
              </button>
            </li>
          ))}
        </ul>
      </nav>
      {current ? (
        <Chart key={current.name} vis={current} />
      ) : (
        <p>No visualization matches{query.trim() ? ` “${query.trim()}”` : ""} in this category.</p>
      )}
    </div>
  );
}
