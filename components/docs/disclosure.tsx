"use client";

import { useState, type ReactNode } from "react";

/**
 * A <details> whose content is made only once it is opened: the reference has some 160 operations, each
 * with schemas, and a page that built them all up front would be slow to load and to search.
 */
export function Disclosure({ summary, children }: { summary: ReactNode; children: () => ReactNode }) {
  const [open, setOpen] = useState(false);
  return (
    <details className="mt-3" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary className="cursor-pointer text-sm font-medium">{summary}</summary>
      {open && <div className="mt-2">{children()}</div>}
    </details>
  );
}
