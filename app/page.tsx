import { headers } from "next/headers";
import Link from "next/link";
import { CapabilityGrid } from "@/components/capability-grid";
import { CodeTabs } from "@/components/code-tabs";
import { Section } from "@/components/portal/section";
import { firstCallSamples, helloRequest, sampleModel } from "@/lib/console/first-call.ts";
import { getGateway } from "@/lib/instance.ts";
import { approvalSummary } from "@/lib/portal/keys/approval-text.ts";
import { getPortal } from "@/lib/portal/sign-in/auth.ts";
import { sampleOrigin } from "@/lib/portal/pages/sample-origin.ts";

// The sample's origin is the request's when PUBLIC_BASE_URL is unset, and the limits and approval
// policy are the running server's: rendered per request, never at build time.
export const dynamic = "force-dynamic";

export default async function HomePage() {
  const requestHeaders = await headers();
  const [{ rt }, { config: portal }] = await Promise.all([getGateway(), getPortal()]);
  const origin = sampleOrigin(rt.config.publicBaseUrl, requestHeaders, portal.url);
  const { day, minute, concurrency } = rt.config.limits;
  const samples = [
    ...firstCallSamples(origin, helloRequest(sampleModel())),
    { id: "check", label: "Check your key", code: `curl -H "X-API-Key: $API_KEY" ${origin}/v1/key` },
  ];

  return (
    <main className="mx-auto max-w-5xl px-6 py-16">
      <p className="text-sm font-medium uppercase tracking-wide text-indigo-700 dark:text-indigo-300">
        Developer portal
      </p>
      <h1 className="mt-2 text-4xl font-bold tracking-tight">Unified API Gateway</h1>
      <p className="mt-4 max-w-2xl text-lg text-slate-600 dark:text-slate-400">
        One API key for language models, research agents, public data sources, reference data and utilities — with
        per-key limits and usage you can see.
      </p>
      <div className="mt-8 flex flex-wrap gap-3">
        <Link
          className="rounded-lg bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-600"
          href="/keys/request"
        >
          Get an API key
        </Link>
        <Link
          className="rounded-lg border border-slate-300 px-4 py-2 font-medium hover:bg-slate-50 dark:border-slate-700 dark:hover:bg-slate-900"
          href="/docs"
        >
          API reference
        </Link>
      </div>

      <Section id="get-a-key" className="mt-12" title="How to get a key">
        <ol className="mt-4 max-w-2xl list-decimal space-y-2 pl-6 text-slate-700 dark:text-slate-300">
          <li>Sign in with a link sent to your email{portal.github ? ", or with GitHub" : ""}.</li>
          <li>
            Request a key: name it, pick the areas it may call and, if you like, its last day, and say what you will
            build with it.
          </li>
          <li>{approvalSummary(portal.keyApproval)}</li>
          <li>Create the key on your keys page. It is shown once: copy it then.</li>
        </ol>
      </Section>

      <Section id="areas" className="mt-12" title="What you can call">
        <div className="mt-4">
          <CapabilityGrid />
        </div>
      </Section>

      <Section id="try-it" className="mt-12" title="Try it">
        <p className="mt-2 text-slate-600 dark:text-slate-400">
          Send your key in the <code>X-API-Key</code> header (or as <code>Authorization: Bearer</code>). Unless the
          operator sets other limits for it, a key has {day.toLocaleString("en-US")} requests a day (reset at midnight
          UTC), {minute} a minute and {concurrency} at once.
        </p>
        <p className="mt-2 mb-4 text-slate-600 dark:text-slate-400">
          A chat completion from your own tools: the OpenAI and Anthropic SDKs take this server as their base URL, and
          an MCP client reaches its tools.
        </p>
        <CodeTabs samples={samples} label="First call" testId="sample" />
        <p className="mt-4 text-sm text-slate-600 dark:text-slate-400">
          Machine-readable: the{" "}
          <a className="underline" href="/openapi.json">
            OpenAPI description
          </a>{" "}
          and the{" "}
          {/* eslint-disable-next-line @next/next/no-html-link-for-pages -- /health is the API's JSON (the catch-all route), not a page */}
          <a className="underline" href="/health">
            service health
          </a>
          .
        </p>
      </Section>
    </main>
  );
}
