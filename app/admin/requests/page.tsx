import type { Metadata } from "next";
import Link from "next/link";
import { AdminShell } from "@/components/portal/admin-shell";
import { OperatorsOnly } from "@/components/portal/operators-only";
import { RequestLog } from "@/components/portal/request-log";
import { getGateway } from "@/lib/instance.ts";
import { listKeys } from "@/lib/gateway/keys/key-list.ts";
import { parseRequestLogParams, requestLogView } from "@/lib/portal/usage/request-log.ts";
import { requireOperator } from "@/lib/portal/sign-in/session.ts";

export const metadata: Metadata = { title: "Request log · Operator · Unified API Gateway" };
export const dynamic = "force-dynamic";

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function AdminRequestsPage({ searchParams }: Props) {
  const session = await requireOperator("/admin/requests");
  if (!session) return <OperatorsOnly />;
  const parsed = parseRequestLogParams(await searchParams);
  const { rt } = await getGateway();
  const view = parsed.ok ? await requestLogView(rt, { operator: true }, parsed.params) : null;
  return (
    <AdminShell current="/admin/requests" title="Request log, all keys">
      <p className="mt-4 text-slate-700 dark:text-slate-300">
        Every keyed request over the last {rt.config.requestLogRetentionDays} days (UTC,{" "}
        <code>REQUEST_LOG_RETENTION_DAYS</code>), with the key&apos;s owner. Daily totals reach further back on the{" "}
        <Link href="/admin/usage" className="text-indigo-700 underline dark:text-indigo-300">
          usage tab
        </Link>
        .
      </p>
      <RequestLog
        base="/admin/requests"
        parsed={parsed}
        view={view}
        keys={view?.keys ?? (await listKeys(rt.db))}
        showOwner
      />
    </AdminShell>
  );
}
