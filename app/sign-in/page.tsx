import type { Metadata } from "next";
import { AuthCard } from "@/components/portal/auth-card";
import { SignInForms } from "@/components/portal/auth-forms";
import { getPortal } from "@/lib/portal/sign-in/auth.ts";
import { currentSession } from "@/lib/portal/sign-in/session.ts";
import { signInError, signInReason } from "@/lib/portal/sign-in/reason.ts";

export const metadata: Metadata = { title: "Sign in · Unified API Gateway" };
export const dynamic = "force-dynamic";

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v)?.slice(0, 2000);

/** next-auth's sign-in page, ours (authOptions.pages.signIn): it says why the page asked, and what happens next. */
export default async function SignInPage({ searchParams }: Props) {
  const query = await searchParams;
  // next-auth checks the return address itself (same origin only) when the form is posted.
  const callbackUrl = one(query.callbackUrl) || "/";
  const reason = signInReason(callbackUrl);
  const problem = signInError(one(query.error));
  const [session, { config }] = await Promise.all([currentSession(), getPortal()]);
  return (
    <AuthCard title="Sign in">
      {reason && (
        <p
          className="mt-3 rounded-lg bg-indigo-50 p-3 text-indigo-950 dark:bg-indigo-950 dark:text-indigo-50"
          data-testid="sign-in-reason"
        >
          {reason}
        </p>
      )}
      {problem && (
        <p
          role="alert"
          className="mt-3 rounded-lg bg-red-50 p-3 font-medium text-red-800 dark:bg-red-950 dark:text-red-200"
        >
          {problem}
        </p>
      )}
      {session && (
        <p className="mt-3 text-slate-700 dark:text-slate-300">
          You are signed in as {session.user.email ?? session.user.name}; signing in again switches account.
        </p>
      )}
      <p className="mt-3 text-slate-700 dark:text-slate-300">
        Sign in with your email address to request API keys, see your usage and use the consoles.
      </p>
      <SignInForms callbackUrl={callbackUrl} github={config.github !== null} oidc={config.oidc?.name ?? null} />
    </AuthCard>
  );
}
