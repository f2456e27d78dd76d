import type { ReactNode } from "react";

/** A bordered table that scrolls sideways on narrow screens: a header row of `headers`, then `children` rows. */
export function DataTable({
  headers,
  margin,
  label,
  children,
}: {
  headers: ReactNode[];
  /** The space above it, a Tailwind margin class such as "mt-3". */
  margin: string;
  /**
   * Names the table's scrolling box and puts it in the tab order, so a keyboard can scroll a table that holds
   * nothing focusable (no links or buttons) when a narrow screen cuts it off.
   */
  label?: string;
  children: ReactNode;
}) {
  return (
    <div
      className={`${margin} overflow-x-auto rounded-xl border border-slate-300 focus-visible:outline-2 focus-visible:outline-indigo-600 dark:border-slate-700`}
      {...(label ? { role: "region", "aria-label": label, tabIndex: 0 } : {})}
    >
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
