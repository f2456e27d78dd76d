import type { Metadata } from "next";
import Link from "next/link";
import { AdminLimitsForm, AdminRevokeForm, DecisionForm } from "@/components/portal/admin-forms";
import { DataTable } from "@/components/portal/data-table";
import { OperatorsOnly } from "@/components/portal/operators-only";
import { Section } from "@/components/portal/section";
import { UsageDashboard } from "@/components/portal/usage-dashboard";
import { getGateway } from "@/lib/instance.ts";
import { listAudit, listKeys } from "@/lib/gateway/keys/admin.ts";
import { formatUtc, keyState } from "@/lib/portal/format.ts";
import { requestTerms } from "@/lib/portal/request-terms.ts";
import { requireOperator } from "@/lib/portal/session.ts";

export const metadata: Metadata = { title: "Operator · Unified API Gateway" };
export const dynamic = "force-dynamic";

const td = "px-3 py-2 align-top";

export default async function AdminPage() {
  const session = await requireOperator("/admin");
  if (!session) return <OperatorsOnly />;
  const { rt } = await getGateway();
  const [pending, keys, audit] = await Promise.all([
    rt.db.prisma.keyRequest.findMany({
      where: { status: "pending" },
      orderBy: { createdAt: "asc" },
      include: { user: true },
    }),
    listKeys(rt.db),
    listAudit(rt.db, 100),
  ]);

  return (
    <main className="mx-auto max-w-6xl px-4 py-10 sm:px-6">
      <h1 className="text-3xl font-bold">Operator</h1>

      <Section id="queue" className="mt-8" title={<>Key requests waiting ({pending.length})</>}>
        {pending.length === 0 ? (
          <p className="mt-2 text-slate-700 dark:text-slate-300">Nothing to review.</p>
        ) : (
          <ul className="mt-3 space-y-3">
            {pending.map((r) => (
              <li key={r.id} className="rounded-xl border border-slate-300 p-4 dark:border-slate-700">
                <p>
                  <strong>{r.name}</strong> for {r.user.email ?? r.userId} · {r.useType}
                  {r.organisation ? ` · ${r.organisation}` : ""} · {formatUtc(r.createdAt)}
                </p>
                <p className="mt-1 text-sm">{requestTerms(r)}</p>
                <p className="mt-1 whitespace-pre-wrap text-sm">{r.intendedUse}</p>
                <DecisionForm id={r.id} name={r.name} />
              </li>
            ))}
          </ul>
        )}
      </Section>

      <Section id="usage" className="mt-10" title="Usage, all keys">
        <p className="mt-2">
          Single requests, searchable by key, status, area, time and request id:{" "}
          <Link href="/admin/requests" className="text-indigo-700 underline dark:text-indigo-300">
            the request log across all keys
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
      </Section>

      <Section id="all-keys" className="mt-10" title={<>All keys ({keys.length})</>}>
        <DataTable
          margin="mt-3"
          headers={[
            "Key",
            "Owner",
            "State",
            "Created",
            "Last used",
            "Limits (empty = default)",
            <span key="actions" className="sr-only">
              Actions
            </span>,
          ]}
        >
          {keys.map((k) => {
            const state = keyState(k);
            return (
              <tr key={k.id} className="border-t border-slate-200 dark:border-slate-800">
                <td className={td}>
                  {k.name} <code>{k.prefix}…</code>
                  {k.kind === "console" ? " (console)" : ""}
                </td>
                <td className={td}>{k.email ?? "—"}</td>
                <td className={td}>{state === "expiring" ? `expires ${formatUtc(k.expires_at)}` : state}</td>
                <td className={td}>{formatUtc(k.created_at)}</td>
                <td className={td}>{formatUtc(k.last_used_at)}</td>
                <td className={td}>
                  {state !== "revoked" && (
                    <AdminLimitsForm id={k.id} name={`${k.name} (${k.prefix})`} limits={k.limits} />
                  )}
                </td>
                <td className={td}>
                  {state !== "revoked" && <AdminRevokeForm id={k.id} name={`${k.name} (${k.prefix})`} />}
                </td>
              </tr>
            );
          })}
        </DataTable>
      </Section>

      <Section id="audit" className="mt-10" title="Audit log (latest 100)">
        <DataTable margin="mt-3" headers={["When", "Actor", "Action", "Target", "Detail"]}>
          {audit.map((a) => (
            <tr key={a.id} className="border-t border-slate-200 dark:border-slate-800">
              <td className={`${td} whitespace-nowrap`}>{formatUtc(a.at)}</td>
              <td className={td}>{a.actor}</td>
              <td className={td}>
                <code>{a.action}</code>
              </td>
              <td className={td}>
                <code>{a.target ?? "—"}</code>
              </td>
              <td className={td}>
                <code className="break-all">{a.detail ? JSON.stringify(a.detail) : ""}</code>
              </td>
            </tr>
          ))}
        </DataTable>
      </Section>
    </main>
  );
}
