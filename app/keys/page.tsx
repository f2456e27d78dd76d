import type { Metadata } from "next";
import Link from "next/link";
import { CollectKeyForm, RenameKeyForm, RevokeKeyForm, RotateKeyForm, ScopesForm } from "@/components/portal/key-forms";
import { Section } from "@/components/portal/section";
import { getGateway } from "@/lib/instance.ts";
import { listKeys } from "@/lib/gateway/keys/admin.ts";
import { SCOPE_AREAS } from "@/lib/gateway/keys/record.ts";
import { pendingNextSteps } from "@/lib/portal/approval-text.ts";
import { getPortal } from "@/lib/portal/auth.ts";
import { formatUtc, keyState } from "@/lib/portal/format.ts";
import { requestTerms } from "@/lib/portal/request-terms.ts";
import { requireSession } from "@/lib/portal/session.ts";

export const metadata: Metadata = { title: "Your keys · Unified API Gateway" };
export const dynamic = "force-dynamic";

const STATE_STYLE = {
  active: "bg-emerald-100 text-emerald-900 dark:bg-emerald-900 dark:text-emerald-100",
  expiring: "bg-amber-100 text-amber-900 dark:bg-amber-900 dark:text-amber-100",
  expired: "bg-slate-200 text-slate-900 dark:bg-slate-700 dark:text-slate-100",
  revoked: "bg-red-100 text-red-900 dark:bg-red-900 dark:text-red-100",
};

export default async function KeysPage() {
  const session = await requireSession("/keys");
  const [{ rt }, { config, mailer }] = await Promise.all([getGateway(), getPortal()]);
  const [keys, requests] = await Promise.all([
    listKeys(rt.db, session.user.id),
    rt.db.prisma.keyRequest.findMany({ where: { userId: session.user.id }, orderBy: { createdAt: "desc" } }),
  ]);
  const defaults = rt.config.limits;
  const open = requests.filter((r) => r.status !== "approved" || r.keyId === null);
  const nextSteps = pendingNextSteps({
    email: session.user.email,
    mailConfigured: mailer.configured,
    operatorsConfigured: config.adminEmails.size > 0,
  });

  return (
    <main className="mx-auto max-w-5xl px-4 py-10 sm:px-6">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-3xl font-bold">Your keys</h1>
        <Link
          href="/keys/request"
          className="rounded-lg bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-600"
        >
          Request a key
        </Link>
      </div>

      {open.length > 0 && (
        <Section id="requests" className="mt-8" title="Requests">
          <ul className="mt-3 space-y-3">
            {open.map((r) => (
              <li key={r.id} className="rounded-xl border border-slate-300 p-4 dark:border-slate-700">
                <p>
                  <strong>{r.name}</strong> · {r.useType} · asked {formatUtc(r.createdAt)} ·{" "}
                  <span className="font-medium">{r.status === "pending" ? "waiting for an operator" : r.status}</span>
                </p>
                <p className="mt-1 text-sm">{requestTerms(r)}</p>
                {r.status === "pending" && <p className="mt-1 text-sm">{nextSteps}</p>}
                {r.note && <p className="mt-1 text-sm">Operator’s note: {r.note}</p>}
                {r.status === "approved" && (
                  <div className="mt-3">
                    <p className="mb-2 text-sm">
                      Approved. The key is created when you press the button and shown once.
                    </p>
                    <CollectKeyForm requestId={r.id} />
                  </div>
                )}
              </li>
            ))}
          </ul>
        </Section>
      )}

      <Section id="keys" className="mt-8" title="Keys">
        {keys.length === 0 ? (
          <p className="mt-3 text-slate-700 dark:text-slate-300">
            No keys yet.{" "}
            <Link href="/keys/request" className="text-indigo-700 underline dark:text-indigo-300">
              Request one
            </Link>
            ; the consoles work without one.
          </p>
        ) : (
          <ul className="mt-3 space-y-3">
            {keys.map((k) => {
              const state = keyState(k);
              const changeable = k.kind === "client" && state !== "revoked" && state !== "expired";
              return (
                <li
                  key={k.id}
                  className="rounded-xl border border-slate-300 p-4 dark:border-slate-700"
                  data-testid={`key-${k.prefix}`}
                >
                  <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
                    <h3 className="font-semibold">{k.name}</h3>
                    <code className="text-sm">{k.prefix}…</code>
                    <span className={`rounded px-2 py-0.5 text-xs font-medium ${STATE_STYLE[state]}`}>
                      {state === "expiring" ? `expires ${formatUtc(k.expires_at)}` : state}
                    </span>
                    {k.kind === "console" && (
                      <span className="text-sm text-slate-700 dark:text-slate-300">
                        used by the consoles while you are signed in
                      </span>
                    )}
                  </div>
                  <dl className="mt-2 grid grid-cols-1 gap-x-6 gap-y-1 text-sm sm:grid-cols-2 lg:grid-cols-4">
                    <div>
                      <dt className="inline text-slate-700 dark:text-slate-300">Created </dt>
                      <dd className="inline">{formatUtc(k.created_at)}</dd>
                    </div>
                    <div>
                      <dt className="inline text-slate-700 dark:text-slate-300">Last used </dt>
                      <dd className="inline">{formatUtc(k.last_used_at)}</dd>
                    </div>
                    <div>
                      <dt className="inline text-slate-700 dark:text-slate-300">Limits </dt>
                      <dd className="inline">
                        {(k.limits.day ?? defaults.day).toLocaleString("en")}/day · {k.limits.minute ?? defaults.minute}
                        /min · {k.limits.concurrency ?? defaults.concurrency} at once
                      </dd>
                    </div>
                    <div>
                      <dt className="inline text-slate-700 dark:text-slate-300">Scopes </dt>
                      <dd className="inline">{k.scopes.length ? k.scopes.join(", ") : "all areas"}</dd>
                    </div>
                  </dl>
                  {changeable && (
                    <details className="mt-3">
                      <summary className="cursor-pointer text-sm font-medium text-indigo-700 dark:text-indigo-300">
                        Manage “{k.name}”
                      </summary>
                      <div className="mt-3 space-y-4 border-l-2 border-slate-300 pl-4 dark:border-slate-700">
                        <RenameKeyForm id={k.id} name={k.name} />
                        <ScopesForm
                          id={k.id}
                          scopes={k.scopes}
                          areas={k.granted_scopes.length ? k.granted_scopes : SCOPE_AREAS}
                          granted={k.granted_scopes.length > 0}
                        />
                        <RotateKeyForm id={k.id} />
                        <RevokeKeyForm id={k.id} name={k.name} />
                      </div>
                    </details>
                  )}
                </li>
              );
            })}
          </ul>
        )}
      </Section>
    </main>
  );
}
