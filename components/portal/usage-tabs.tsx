import { TabNav } from "./tab-nav";

const TABS = [
  { href: "/usage", name: "Dashboard" },
  { href: "/usage/requests", name: "Request log" },
] as const;

/** The two views of one's usage: the charts of daily totals, and the log of single requests. */
export function UsageTabs({ current }: { current: (typeof TABS)[number]["href"] }) {
  return <TabNav label="Usage views" tabs={TABS} current={current} />;
}
