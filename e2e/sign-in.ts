import type { Page } from "@playwright/test";
import type { TestSmtp } from "../test/support/mail.ts";

/**
 * Signs `email` in the way a person does: the sign-in page, the magic link from the mail the server
 * sent (captured by the test SMTP server), back to `path`. The page's context then holds the session cookie.
 */
export async function signInThroughMail(
  page: Page,
  baseUrl: string,
  smtp: TestSmtp,
  email: string,
  path = "/",
): Promise<void> {
  const already = smtp.mails.length;
  await page.goto(`${baseUrl}/api/auth/signin?callbackUrl=${encodeURIComponent(`${baseUrl}${path}`)}`);
  await page.fill('input[name="email"]', email);
  await page.click('button[type="submit"]');
  await page.waitForURL(/verify-request/);
  const mail = await smtp.waitFor(email, /\/api\/auth\/callback\/email\?/, { since: already });
  const link = /https?:\/\/\S+\/api\/auth\/callback\/email\?\S+/.exec(mail.text)?.[0];
  if (!link) throw new Error(`no sign-in link in the mail:\n${mail.text}`);
  await page.goto(link);
  await page.waitForURL((url) => url.pathname === path);
}
