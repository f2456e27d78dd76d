import type { ReactNode } from "react";

/** A bordered table that scrolls sideways on narrow screens: a header row of `headers`, then `children` rows. */
export function DataTable({
  headers,
  margin,
  children,
}: {
  headers: ReactNode[];
  /** The space above it, a Tailwind margin class such as "mt-3". */
  margin: string;
  children: ReactNode;
}) {
  return (
    <div className={`${margin} overflow-x-auto rounded-xl border border-slate-300 dark:border-slate-700`}>
      <table className="min-w-full text-sm">
        <thead className="bg-slate-100 dark:bg-slate-900">
          <tr>
            {headers.map((header, i) => (
              <th key={i} className="px-3 py-2 text-left font-semibold">
                {header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
