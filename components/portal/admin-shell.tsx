import type { ReactNode } from "react";
import { TabNav } from "./tab-nav";

const TABS = [
  { href: "/admin", name: "Key requests" },
  { href: "/admin/keys", name: "Keys" },
  { href: "/admin/usage", name: "Usage" },
  { href: "/admin/requests", name: "Request log" },
  { href: "/admin/prices", name: "Prices" },
  { href: "/admin/routing", name: "Routing" },
  { href: "/admin/audit", name: "Audit log" },
] as const;

export type AdminTab = (typeof TABS)[number]["href"];

/** Every operator page: its title, the tabs between the operator's views, then the view. */
export function AdminShell({ current, title, children }: { current: AdminTab; title: string; children: ReactNode }) {
  return (
    <main className="mx-auto max-w-6xl px-4 py-10 sm:px-6">
      <p className="text-sm font-medium text-slate-700 dark:text-slate-300">Operator</p>
      <h1 className="text-3xl font-bold">{title}</h1>
      <TabNav label="Operator views" tabs={TABS} current={current} />
      {children}
    </main>
  );
}
