import type { Metadata } from "next";
import Link from "next/link";
import { AuthCard } from "@/components/portal/auth-card";
import { signInError } from "@/lib/portal/sign-in/reason.ts";

export const metadata: Metadata = { title: "Sign-in problem · Unified API Gateway" };
export const dynamic = "force-dynamic";

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** next-auth's error page, ours (authOptions.pages.error): what went wrong, and the way back in. */
export default async function SignInErrorPage({ searchParams }: Props) {
  const raw = (await searchParams).error;
  const code = (Array.isArray(raw) ? raw[0] : raw)?.slice(0, 100);
  return (
    <AuthCard title="Sign-in did not work">
      <p role="alert" className="mt-3 text-lg">
        {signInError(code) ?? "Something went wrong while signing in. Try again."}
      </p>
      <p className="mt-6">
        <Link
          href="/sign-in"
          className="inline-block rounded-lg bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-600"
        >
          Ask for a new sign-in link
        </Link>
      </p>
    </AuthCard>
  );
}
