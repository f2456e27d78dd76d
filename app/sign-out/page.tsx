import type { Metadata } from "next";
import Link from "next/link";
import { AuthCard } from "@/components/portal/auth-card";
import { SignOutForm } from "@/components/portal/auth-forms";
import { currentSession } from "@/lib/portal/sign-in/session.ts";

export const metadata: Metadata = { title: "Sign out · Unified API Gateway" };
export const dynamic = "force-dynamic";

/** next-auth's sign-out page, ours (authOptions.pages.signOut): a confirmation, since a GET must not sign out. */
export default async function SignOutPage() {
  const session = await currentSession();
  if (!session)
    return (
      <AuthCard title="You are signed out">
        <p className="mt-3">
          <Link href="/sign-in" className="text-indigo-700 underline dark:text-indigo-300">
            Sign in
          </Link>{" "}
          to manage your keys and see your usage.
        </p>
      </AuthCard>
    );
  return (
    <AuthCard title="Sign out">
      <p className="mt-3">
        You are signed in as <strong>{session.user.email ?? session.user.name}</strong>. Signing out ends this
        browser&apos;s session and its console access; your API keys keep working.
      </p>
      <SignOutForm />
    </AuthCard>
  );
}
