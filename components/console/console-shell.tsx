import Link from "next/link";
import type { ReactNode } from "react";
import { consoleModelsOpen } from "@/lib/gateway/keys/console-access.ts";
import { signInHref } from "@/lib/console/api.ts";
import { getGateway } from "@/lib/instance.ts";
import { currentSession } from "@/lib/portal/sign-in/session.ts";
import { ModelAccessNotice } from "./model-access-notice";
import { ConsoleProviders } from "./providers";

export const CONSOLES = [
  { href: "/console/chat", label: "Chat", about: "Stream replies from any configured language model." },
  { href: "/console/aac", label: "AAC builder", about: "Turn a sentence into a printable strip of pictograms." },
  {
    href: "/console/story",
    label: "Story graph",
    about: "Generate or paste a branching story, see its graph and read it.",
  },
  {
    href: "/console/datavis",
    label: "DataVis",
    about: "Browse the Vega-Lite chart gallery and the data behind each chart.",
  },
  {
    href: "/console/research",
    label: "Research",
    about: "Run a multi-agent cascade or swarm, watch its agents live, read the summary and sources.",
  },
] as const;

export function ConsoleNav({ current }: { current: string }) {
  return (
    <nav
      aria-label="Consoles"
      className="print:hidden border-b border-slate-200 bg-slate-50 dark:border-slate-800 dark:bg-slate-900"
    >
      <ul className="mx-auto flex max-w-6xl flex-wrap items-center gap-1 px-4 py-2 text-sm sm:px-6">
        <li className="mr-3 font-semibold">
          <Link href="/console" aria-current={current === "/console" ? "page" : undefined} className="hover:underline">
            Consoles
          </Link>
        </li>
        {CONSOLES.map((c) => (
          <li key={c.href}>
            <Link
              href={c.href}
              aria-current={c.href === current ? "page" : undefined}
              className="rounded-md px-3 py-1.5 hover:bg-slate-200 aria-[current=page]:bg-indigo-700 aria-[current=page]:text-white dark:hover:bg-slate-800"
            >
              {c.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** Why the consoles allow less than a key: every sign-up gets a console, so it cannot carry a full quota. */
export function ConsoleAllowance() {
  return (
    <p className="mt-2 max-w-3xl text-sm text-slate-700 print:hidden dark:text-slate-300">
      Consoles share a smaller allowance than an approved API key (fewer requests a day and a minute, and only the areas
      the consoles use). For real work, request a key from your keys page.
    </p>
  );
}

/** Whether a signed-in user's console may call the model areas (the gateway's own rule, console-access.ts). */
async function modelsOpen(userId: string): Promise<boolean> {
  const { rt } = await getGateway();
  return consoleModelsOpen(rt.db, userId, rt.config.keyApproval);
}

/**
 * The server-rendered frame every console shares: navigation, title and purpose render at once (they
 * are the page's largest paint); the interactive part is a client component inside. Signed-out
 * visitors get a sign-in link instead, since consoles call /v1 with the session. `models`: the console
 * calls language models, for all it does ("required": without access it gives way to the notice) or
 * for part ("optional": the notice goes above it).
 */
export async function ConsoleShell({
  path,
  title,
  intro,
  models,
  children,
}: {
  path: string;
  title: string;
  intro: ReactNode;
  models?: "required" | "optional";
  children: ReactNode;
}) {
  const session = await currentSession();
  const withheld = session && models ? !(await modelsOpen(session.user.id)) : false;
  return (
    <>
      <ConsoleNav current={path} />
      <main className="mx-auto max-w-6xl px-4 py-8 sm:px-6">
        <h1 className="text-3xl font-bold tracking-tight">{title}</h1>
        <p className="mt-2 max-w-3xl text-slate-700 print:hidden dark:text-slate-300">{intro}</p>
        <ConsoleAllowance />
        <div className="mt-6">
          {session ? (
            !withheld ? (
              <ConsoleProviders>{children}</ConsoleProviders>
            ) : models === "required" ? (
              <ModelAccessNotice instead />
            ) : (
              <>
                <ModelAccessNotice instead={false} />
                <div className="mt-6">
                  <ConsoleProviders>{children}</ConsoleProviders>
                </div>
              </>
            )
          ) : (
            <div className="rounded-xl border border-slate-300 p-6 dark:border-slate-700">
              <p>The consoles call the API as you, with your portal session. Sign in to use this one.</p>
              <a
                href={signInHref(path)}
                className="mt-4 inline-block rounded-lg bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-600"
              >
                Sign in
              </a>
            </div>
          )}
        </div>
      </main>
    </>
  );
}
