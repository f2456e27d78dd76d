import type { Metadata } from "next";
import Link from "next/link";
import { DataTable } from "@/components/portal/data-table";
import { DeleteProviderKeyForm, SaveProviderKeyForm } from "@/components/portal/provider-key-forms";
import { Section } from "@/components/portal/section";
import { getGateway } from "@/lib/instance.ts";
import { KEYED_PROVIDERS, ownerCredentials } from "@/lib/llm/routing/owner-credentials.ts";
import { providerKeyRows } from "@/lib/portal/keys/provider-keys.ts";
import { requireSession } from "@/lib/portal/sign-in/session.ts";

export const metadata: Metadata = { title: "Provider keys · Unified API Gateway" };
export const dynamic = "force-dynamic";

/** The signed-in user's own provider keys (bring your own key): listed by their last four characters, added, replaced, deleted. */
export default async function ProviderKeysPage() {
  const session = await requireSession("/keys/providers");
  const { rt } = await getGateway();
  const enabled = Boolean(rt.config.secretBox);
  const rows = enabled ? await providerKeyRows(ownerCredentials(rt), session.user.id) : [];
  const policy = rt.config.ownerKeys;

  return (
    <main className="mx-auto max-w-5xl px-4 py-10 sm:px-6">
      <p className="text-sm">
        <Link href="/keys" className="text-indigo-700 underline dark:text-indigo-300">
          Your keys
        </Link>
      </p>
      <h1 className="mt-2 text-3xl font-bold">Provider keys</h1>
      <p className="mt-2 max-w-2xl text-slate-700 dark:text-slate-300">
        Your own keys for the model providers. Model calls made with any of your API keys go to a provider on your key
        for it{" "}
        {policy === "only"
          ? "and never on the gateway’s."
          : policy === "off"
            ? "once the operator turns this on; for now they use the gateway’s own."
            : "first, and on the gateway’s own if the provider refuses yours."}{" "}
        The provider bills you for those calls; they still count in your usage here.
      </p>

      {!enabled ? (
        <p role="status" className="mt-8 rounded-xl border border-slate-300 p-4 dark:border-slate-700">
          The operator has not enabled provider keys on this gateway (it needs GATEWAY_SECRET_KEYS set), so none can be
          stored yet.
        </p>
      ) : (
        <>
          <Section id="stored" className="mt-8" title="Stored keys">
            {rows.length === 0 ? (
              <p className="mt-3 text-slate-700 dark:text-slate-300">No provider keys yet.</p>
            ) : (
              <DataTable margin="mt-3" headers={["Provider", "Label", "Key", "Updated", "Last used", "Delete"]}>
                {rows.map((r) => (
                  <tr
                    key={`${r.provider}/${r.label}`}
                    data-testid={`provider-key-${r.provider}-${r.label}`}
                    className="border-t border-slate-200 dark:border-slate-800"
                  >
                    <td className="px-3 py-2">{r.provider}</td>
                    <td className="px-3 py-2">{r.label}</td>
                    <td className="px-3 py-2">
                      <code>…{r.last4}</code>
                    </td>
                    <td className="px-3 py-2">{r.updated}</td>
                    <td className="px-3 py-2">{r.lastUsed}</td>
                    <td className="px-3 py-2">
                      <DeleteProviderKeyForm provider={r.provider} label={r.label} />
                    </td>
                  </tr>
                ))}
              </DataTable>
            )}
          </Section>
          <Section id="add" className="mt-8" title="Add or replace a key">
            <SaveProviderKeyForm providers={KEYED_PROVIDERS} />
          </Section>
        </>
      )}
    </main>
  );
}
