import type { Metadata } from "next";
import { UsageDashboard } from "@/components/portal/usage-dashboard";
import { UsageTabs } from "@/components/portal/usage-tabs";
import { getGateway } from "@/lib/instance.ts";
import { listKeys } from "@/lib/gateway/keys/admin.ts";
import { requireSession } from "@/lib/portal/session.ts";

export const metadata: Metadata = { title: "Your usage · Unified API Gateway" };
export const dynamic = "force-dynamic";

export default async function UsagePage() {
  const session = await requireSession("/usage");
  const { rt } = await getGateway();
  const keys = await listKeys(rt.db, session.user.id);
  return (
    <main className="mx-auto max-w-6xl px-4 py-10 sm:px-6">
      <h1 className="text-3xl font-bold">Your usage</h1>
      <UsageTabs current="/usage" />
      <p className="mt-4 text-slate-700 dark:text-slate-300">
        The last 30 days (UTC) across your keys, the consoles included. Counts are written in batches, so a call shows
        up within a few seconds; what is left today is live.
      </p>
      <UsageDashboard
        endpoint="/api/portal/usage"
        keys={keys.map((k) => ({ id: k.id, label: `${k.name} (${k.prefix}…)` }))}
        showKeys={false}
      />
    </main>
  );
}
