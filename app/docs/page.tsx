import type { Metadata } from "next";
import { ApiReference } from "@/components/docs/api-reference";

export const metadata: Metadata = { title: "API reference · Unified API Gateway" };

export default function DocsPage() {
  return (
    <>
      <header className="mx-auto max-w-6xl px-4 pt-8 pb-4 sm:px-6">
        <h1 className="text-3xl font-bold tracking-tight">API reference</h1>
        <p className="mt-2 max-w-3xl text-slate-700 dark:text-slate-300">
          Every operation of this server, from its{" "}
          <a className="underline" href="/openapi.json">
            OpenAPI description
          </a>
          . Paste a key below to try any operation from this page.
        </p>
      </header>
      <ApiReference />
    </>
  );
}
