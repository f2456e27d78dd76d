import type { Metadata } from "next";
import Link from "next/link";
import { NewKeyHolder } from "@/components/portal/new-key";
import { CollectKeyForm, DismissRequestForm, WithdrawRequestForm } from "@/components/portal/key-forms";
import { RecentGuardrailDecisions } from "@/components/portal/guardrail-decisions";
import { CurrentKeyItem, RetiredKeys } from "@/components/portal/key-list";
import { Section } from "@/components/portal/section";
import { getGateway } from "@/lib/instance.ts";
import { listKeys } from "@/lib/gateway/keys/key-list.ts";
import { consoleModelsOpen, MODEL_AREAS } from "@/lib/gateway/keys/console-access.ts";
import { pendingNextSteps } from "@/lib/portal/keys/approval-text.ts";
import { getPortal } from "@/lib/portal/sign-in/auth.ts";
import { formatUtc } from "@/lib/portal/pages/format.ts";
import { arrangeKeys } from "@/lib/portal/keys/lineage.ts";
import { keyGuardrails } from "@/lib/portal/keys/guardrail-policy.ts";
import { keyRequestsOf } from "@/lib/portal/keys/my-keys.ts";
import { requestTerms } from "@/lib/portal/keys/request-terms.ts";
import { requireSession } from "@/lib/portal/sign-in/session.ts";
import { budgetsOf, budgetStanding } from "@/lib/portal/usage/budgets.ts";
import { recentGuardrailDecisions } from "@/lib/portal/usage/request-log.ts";
import { ceilingTexts } from "@/lib/usage/budget-text.ts";

export const metadata: Metadata = { title: "Your keys · Unified API Gateway" };
export const dynamic = "force-dynamic";

export default async function KeysPage() {
  const session = await requireSession("/keys");
  const [{ rt }, { config, mailer }] = await Promise.all([getGateway(), getPortal()]);
  const [keys, requests, modelsOpen, budgets, decisions] = await Promise.all([
    listKeys(rt.db, session.user.id),
    keyRequestsOf(rt.db, session.user.id),
    consoleModelsOpen(rt.db, session.user.id, config.keyApproval, config.adminEmails),
    budgetsOf(rt.db, rt.budgets, session.user.id),
    recentGuardrailDecisions(rt, session.user.id),
  ]);
  // An active client key's budget is set on its card; others (console keys, keys being replaced) have none.
  const ceilings = ceilingTexts(rt.config.budgets.ceilings);
  const budgetOf = new Map(budgets.map((b) => [b.id, { standing: budgetStanding(b.status), ceilings }]));
  // What the gateway refuses this user's console key until they are approved (the session bridge decides the same).
  const withheld = modelsOpen ? [] : MODEL_AREAS;
  const { current, retired } = arrangeKeys(keys);
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
        <div className="flex flex-wrap items-center gap-4">
          <Link href="/teams" className="text-indigo-700 underline dark:text-indigo-300">
            Teams
          </Link>
          <Link href="/keys/providers" className="text-indigo-700 underline dark:text-indigo-300">
            Provider keys
          </Link>
          <Link
            href="/keys/request"
            className="rounded-lg bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-600"
          >
            Request a key
          </Link>
        </div>
      </div>

      <NewKeyHolder>
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
                  {r.status === "pending" && (
                    <div className="mt-3">
                      <WithdrawRequestForm id={r.id} name={r.name} />
                    </div>
                  )}
                  {r.status === "declined" && (
                    <div className="mt-3">
                      <DismissRequestForm id={r.id} name={r.name} />
                    </div>
                  )}
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
          {current.length === 0 ? (
            <p className="mt-3 text-slate-700 dark:text-slate-300">
              {keys.length === 0 ? "No keys yet." : "No working keys."}{" "}
              <Link href="/keys/request" className="text-indigo-700 underline dark:text-indigo-300">
                Request one
              </Link>
              ; the consoles work without one.
            </p>
          ) : (
            <ul className="mt-3 space-y-3">
              {current.map((entry) => (
                <CurrentKeyItem
                  key={entry.key.id}
                  entry={entry}
                  policy={rt.config}
                  withheld={withheld}
                  budget={budgetOf.get(entry.key.id)}
                  guardrails={keyGuardrails(entry.key, rt.levels, rt.config.routing)}
                />
              ))}
            </ul>
          )}
          {retired.length > 0 && <RetiredKeys retired={retired} />}
        </Section>
        <RecentGuardrailDecisions rows={decisions} />
      </NewKeyHolder>
    </main>
  );
}
