import type { Metadata } from "next";
import Link from "next/link";
import { AdminShell } from "@/components/portal/admin-shell";
import { OperatorsOnly } from "@/components/portal/operators-only";
import { UsageDashboard } from "@/components/portal/usage-dashboard";
import { getGateway } from "@/lib/instance.ts";
import { listKeys } from "@/lib/gateway/keys/key-list.ts";
import { requireOperator } from "@/lib/portal/sign-in/session.ts";

export const metadata: Metadata = { title: "Usage · Operator · Unified API Gateway" };
export const dynamic = "force-dynamic";

/** Daily totals across every key, from the rollups (the request log tab has single requests). */
export default async function AdminUsagePage() {
  const session = await requireOperator("/admin/usage");
  if (!session) return <OperatorsOnly />;
  const { rt } = await getGateway();
  const keys = await listKeys(rt.db);
  return (
    <AdminShell current="/admin/usage" title="Usage, all keys">
      <p className="mt-4">
        Single requests, searchable by key, status, area, time and request id, are in the{" "}
        <Link href="/admin/requests" className="text-indigo-700 underline dark:text-indigo-300">
          request log
        </Link>
        . Estimated costs use{" "}
        <Link href="/admin/prices" className="text-indigo-700 underline dark:text-indigo-300">
          the model price table
        </Link>
        , which you can edit.
      </p>
      <UsageDashboard
        endpoint="/api/portal/admin/usage"
        keys={keys.map((k) => ({ id: k.id, label: `${k.name} (${k.prefix}…, ${k.email ?? "no owner"})` }))}
        showKeys
      />
    </AdminShell>
  );
}
