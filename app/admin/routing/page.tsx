import type { Metadata } from "next";
import { AdminShell } from "@/components/portal/admin-shell";
import { CacheClear } from "@/components/portal/cache-clear";
import { DataTable } from "@/components/portal/data-table";
import { OperatorsOnly } from "@/components/portal/operators-only";
import { RoutingEditor } from "@/components/portal/routing-editor";
import { Section } from "@/components/portal/section";
import { getGateway } from "@/lib/instance.ts";
import { MAX_ROUTING_BYTES, routingView } from "@/lib/portal/admin/routing-edits.ts";
import { requireOperator } from "@/lib/portal/sign-in/session.ts";

export const metadata: Metadata = { title: "Model routing · Operator · Unified API Gateway" };
export const dynamic = "force-dynamic";

export default async function RoutingPage() {
  const session = await requireOperator("/admin/routing");
  if (!session) return <OperatorsOnly />;
  const { rt } = await getGateway();
  const view = routingView(rt.config.routing);
  return (
    <AdminShell current="/admin/routing" title="Model routing">
      <p className="mt-4 max-w-3xl text-slate-700 dark:text-slate-300">
        The deployments (a provider, a model and the environment variable holding its key) and the aliases callers name
        as the model; <code>docs/routing.md</code> explains the file. A saved file is in force on this instance at once:
        requests already running finish on the routing they started with, and circuit breakers keep their state.{" "}
        <strong>
          Other instances reading the same file (on a shared volume, or the processes of one host) put it in force
          within a few seconds; an instance with its own copy follows only changes to that copy.
        </strong>
      </p>
      <p className="mt-3" data-testid="routing-file">
        {view.file ? (
          <>
            File: <code>{view.file}</code> ({view.format === "json" ? "JSON" : "YAML"})
          </>
        ) : (
          <>
            No file: environment-only deployments. Saving writes <code>{view.target}</code>.
          </>
        )}
      </p>
      <Section id="routing-deployments" className="mt-8" title={<>Deployments in force ({view.deployments.length})</>}>
        {view.deployments.length === 0 ? (
          <p className="mt-3">None: no provider&apos;s key is set, and no file declares a deployment.</p>
        ) : (
          <DataTable
            margin="mt-3"
            label="Deployments in force"
            headers={["Name", "Provider", "Model", "Weight", "Credential", "Declared"]}
          >
            {view.deployments.map((d) => (
              <tr key={d.name} className="border-t border-slate-200 dark:border-slate-800">
                <td className="px-3 py-2">
                  <code>{d.name}</code>
                </td>
                <td className="px-3 py-2">{d.provider}</td>
                <td className="px-3 py-2">
                  <code>{d.model}</code>
                  {d.origin && <span className="block text-xs text-slate-600 dark:text-slate-400">{d.origin}</span>}
                </td>
                <td className="px-3 py-2">{d.weight}</td>
                <td className="px-3 py-2">
                  <code>{d.credential}</code> {d.credentialState}
                </td>
                <td className="px-3 py-2">{d.implicit ? "implicit" : "in the file"}</td>
              </tr>
            ))}
          </DataTable>
        )}
      </Section>
      <Section id="routing-aliases" className="mt-8" title={<>Aliases ({view.aliases.length})</>}>
        {view.aliases.length === 0 ? (
          <p className="mt-3">None: callers name models as provider/model.</p>
        ) : (
          <DataTable margin="mt-3" label="Aliases" headers={["Alias", "Strategy", "Deployments", "Retries", "Timeout"]}>
            {view.aliases.map((a) => (
              <tr key={a.name} className="border-t border-slate-200 dark:border-slate-800">
                <td className="px-3 py-2">
                  <code>{a.name}</code>
                </td>
                <td className="px-3 py-2">{a.strategy}</td>
                <td className="px-3 py-2">
                  {a.deployments.map((t) => (t.weight === 1 ? t.name : `${t.name} (weight ${t.weight})`)).join(", ")}
                </td>
                <td className="px-3 py-2">{a.retries ?? "default"}</td>
                <td className="px-3 py-2">{a.timeoutMs === undefined ? "default" : `${a.timeoutMs} ms`}</td>
              </tr>
            ))}
          </DataTable>
        )}
      </Section>
      <Section id="routing-guardrails" className="mt-8" title={<>Guardrail policies ({view.guardrails.length})</>}>
        {view.guardrails.length === 0 ? (
          <p className="mt-3">
            None: add a <code>guardrails</code> section below (<code>docs/guardrails.md</code>), then name a policy on a
            key, a team or an alias.
          </p>
        ) : (
          <DataTable margin="mt-3" label="Guardrail policies" headers={["Policy", "What it does", "Checks", "Aliases"]}>
            {view.guardrails.map((g) => (
              <tr key={g.name} className="border-t border-slate-200 dark:border-slate-800">
                <td className="px-3 py-2">
                  <code>{g.name}</code>
                </td>
                <td className="px-3 py-2">{g.does}</td>
                <td className="px-3 py-2">{g.stages.join(", ")}</td>
                <td className="px-3 py-2">{g.aliases.length ? g.aliases.join(", ") : "none"}</td>
              </tr>
            ))}
          </DataTable>
        )}
      </Section>
      <Section id="routing-edit" className="mt-10" title="Edit the file">
        <p className="mt-2 max-w-3xl text-sm text-slate-700 dark:text-slate-300">
          {view.format === "json" ? "JSON" : "YAML"}, at most {MAX_ROUTING_BYTES / 1024} KB. Check validates without
          saving; Save validates as a start would (every credential must be set on this instance), writes the file and
          puts it in force. Each save is in the audit log.
        </p>
        <RoutingEditor text={view.text} version={view.version} target={view.target} format={view.format} />
      </Section>
      <Section id="routing-cache" className="mt-10" title="Response cache">
        <p className="mt-2 max-w-3xl text-slate-700 dark:text-slate-300">
          Answers kept for requests that asked with <code>Cache-Control</code> and for aliases with a <code>cache</code>{" "}
          policy (<code>docs/cache.md</code>). Callers clear their own with <code>DELETE /v1/cache</code>; this clears
          every key&apos;s and every shared alias&apos;s
          {rt.config.redisUrl ? ", on the Redis every instance shares" : " on this instance"}.
        </p>
        <CacheClear />
      </Section>
    </AdminShell>
  );
}
