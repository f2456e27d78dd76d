import { expect, test } from "@playwright/test";
import { backendEnv } from "../test/support/backends.ts";
import { startServerProcess, type ServerProcess } from "../test/support/server-process.ts";
import { expectAccessible, overflowsSideways, screenshot, signIn } from "./console-session.ts";

/**
 * The portal's own sign-in pages on a server without SMTP, where a user's link is
 * written to the log (what e2e/console-session.ts signs in with): why a page asks for sign-in, the
 * check-your-email page with its spam hint and delayed resend, the error page of a used link, and
 * sign-out. At a desktop and a phone width, light and dark.
 */

/** Every sign-in link the server logged for `email`, oldest first. */
function loggedLinks(server: ServerProcess, email: string): string[] {
  return server
    .output()
    .split("\n")
    .filter((line) => line.includes("NO SMTP CONFIGURED"))
    .map((line) => JSON.parse(line) as { email?: string; signInLink?: string })
    .filter((entry) => entry.email === email && entry.signInLink)
    .map((entry) => entry.signInLink!);
}

test.describe("sign-in pages in the portal's look", () => {
  let server: ServerProcess;
  let cleanup: () => Promise<void>;

  test.beforeAll(async () => {
    const b = await backendEnv("pglite");
    cleanup = b.cleanup;
    server = await startServerProcess({ ...b.env, ADMIN_EMAILS: "ops@example.test" });
  });
  test.afterAll(async () => {
    await server?.stop();
    await cleanup?.();
  });

  for (const [label, viewport] of [
    ["desktop", { width: 1280, height: 900 }],
    ["phone", { width: 390, height: 844 }],
  ] as const) {
    for (const colorScheme of ["light", "dark"] as const) {
      test.describe(`at ${viewport.width} px, ${colorScheme}`, () => {
        test.use({ viewport });
        const email = `${label}-${colorScheme}@example.test`;
        const shot = (name: string) => `sign-in-${name}-${label}-${colorScheme}`;

        test("says why a portal page needs sign-in, for each area", async ({ page }) => {
          await page.emulateMedia({ colorScheme });
          await page.goto(`${server.url}/keys`);
          await page.waitForURL(/\/sign-in\?callbackUrl=%2Fkeys$/);
          await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sign in");
          await expect(page.getByTestId("sign-in-reason")).toHaveText(/API keys belong to your account/);
          await expect(page.getByRole("button", { name: "Email me a sign-in link" })).toBeEnabled();
          expect(await overflowsSideways(page)).toBe(false);
          await expectAccessible(page);
          await screenshot(page, shot("keys"));

          await page.goto(`${server.url}/admin/audit`);
          await expect(page.getByTestId("sign-in-reason")).toHaveText(/operator pages.*\(ADMIN_EMAILS\)/);
          await page.goto(`${server.url}/usage/requests`);
          await expect(page.getByTestId("sign-in-reason")).toHaveText(/request log/);
          // The header's own link asks nothing of a page: no reason, only the form.
          await page.goto(server.url);
          await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Sign in" }).click();
          await page.waitForURL(/\/sign-in$/);
          await expect(page.getByTestId("sign-in-reason")).toHaveCount(0);
        });

        test("sends a link, hints at the spam folder, and resends only after a delay", async ({ page }) => {
          await page.clock.install();
          await page.emulateMedia({ colorScheme });
          await page.goto(`${server.url}/usage`);
          await page.getByLabel("Email address").fill(email);
          await page.getByRole("button", { name: "Email me a sign-in link" }).click();
          await page.waitForURL(/\/sign-in\/verify-request/);
          await expect(page.getByRole("heading", { level: 1 })).toHaveText("Check your email");
          await expect(page.getByText(`We sent a sign-in link to ${email}`)).toBeVisible();
          await expect(page.getByText(/spam or junk folder/)).toBeVisible();
          const resend = page.getByRole("button", { name: /Send the link again/ });
          await expect(resend).toBeDisabled();
          await expect(resend).toHaveText(/in \d+ s/);
          expect(await overflowsSideways(page)).toBe(false);
          await expectAccessible(page);
          await screenshot(page, shot("check-email"));
          await expect.poll(() => loggedLinks(server, email).length).toBe(1);

          await page.clock.runFor(31_000);
          await expect(resend).toBeEnabled();
          await resend.click();
          await expect(page.getByText(/^Sent another link/)).toHaveText(
            `Sent another link to ${email}. Either link works, for 15 minutes.`,
          );
          await expect(resend).toBeDisabled();
          await expect.poll(() => loggedLinks(server, email).length).toBe(2);

          // The newest link signs in and comes back to the page that asked.
          const [first, second] = loggedLinks(server, email);
          await page.goto(second!);
          await page.waitForURL((url) => url.pathname === "/usage");
          await expect(page.getByRole("navigation", { name: "Main" })).toContainText(email);
          await page.context().clearCookies();

          // A link works once: the used one now meets the error page, which leads back to sign-in.
          await page.goto(second!);
          await page.waitForURL(/\/sign-in\/error\?error=Verification/);
          await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sign-in did not work");
          await expect(page.getByText("That sign-in link no longer works")).toContainText("works once, for 15 minutes");
          expect(await overflowsSideways(page)).toBe(false);
          await expectAccessible(page);
          await screenshot(page, shot("error"));
          // The first link was not used, and still works.
          await page.goto(first!);
          await page.waitForURL((url) => url.pathname === "/usage");
        });

        test("signs out after a confirmation", async ({ page }) => {
          await page.emulateMedia({ colorScheme });
          // The helper the console specs use: the sign-in page's form, and the link from the log.
          await signIn(page, server, `out-${email}`);
          await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Sign out" }).click();
          await page.waitForURL(/\/sign-out$/);
          await expect(page.getByText(`You are signed in as out-${email}`)).toBeVisible();
          expect(await overflowsSideways(page)).toBe(false);
          await expectAccessible(page);
          await screenshot(page, shot("sign-out"));
          await page.getByRole("button", { name: "Sign out" }).click();
          await page.waitForURL((url) => url.pathname === "/");
          await expect(
            page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Sign in" }),
          ).toBeVisible();
          await page.goto(`${server.url}/sign-out`);
          await expect(page.getByRole("heading", { level: 1 })).toHaveText("You are signed out");
        });
      });
    }
  }
});
