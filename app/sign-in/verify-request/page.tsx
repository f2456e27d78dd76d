import type { Metadata } from "next";
import { AuthCard } from "@/components/portal/auth-card";
import { CheckEmail } from "@/components/portal/auth-forms";
import { getPortal } from "@/lib/portal/sign-in/auth.ts";

export const metadata: Metadata = { title: "Check your email · Unified API Gateway" };
export const dynamic = "force-dynamic";

/** Seconds before "send again" opens: long enough for a normal mail to arrive first. */
const RESEND_AFTER_S = 30;

/** Where next-auth sends the browser after mailing a link (authOptions.pages.verifyRequest). */
export default async function CheckEmailPage() {
  const { config, mailer } = await getPortal();
  return (
    <AuthCard title="Check your email">
      <CheckEmail delaySeconds={RESEND_AFTER_S} from={config.emailFrom} />
      {!mailer.configured && (
        <p className="mt-6 rounded-lg bg-amber-50 p-3 text-sm text-amber-950 dark:bg-amber-950 dark:text-amber-50">
          This server sends no mail (no <code>SMTP_URL</code>): the link is written to the server&apos;s log instead,
          where whoever runs it can find it (an operator&apos;s link only outside production).
        </p>
      )}
    </AuthCard>
  );
}
