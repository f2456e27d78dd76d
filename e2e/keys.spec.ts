import { expect, test, type Locator, type Page } from "@playwright/test";
import { readOperatorEndpoint } from "../lib/gateway/keys/operator.ts";
import { backendEnv } from "../test/support/backends.ts";
import { startTestSmtp, type TestSmtp } from "../test/support/mail.ts";
import { startServerProcess, type ServerProcess } from "../test/support/server-process.ts";
import { expectAccessibleInBothSchemes, overflowsSideways } from "./console-session.ts";
import { signInThroughMail } from "./sign-in.ts";

/**
 * The keys page and the request form on a server that issues keys at once
 * to addresses at one domain and leaves everyone else to an operator: the one-step key, the name
 * rule, the pending state, and rotated, revoked and expired keys. At a desktop and a phone width.
 */

const TRUSTED = "trusted.test";

/** A date `days` from today as a date input takes it (UTC). */
function dayFromNow(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

/** Fills the request form's other fields: what the key is for. */
async function describeUse(page: Page): Promise<void> {
  await page.getByLabel("Intended use").fill("Running the nightly checks of our CI.");
  await page.getByLabel("Research").check();
}

/** The key shown once after creating or rotating, then "Done", which returns to the refreshed page. */
async function takeShownKey(page: Page): Promise<string> {
  const shown = page.getByTestId("new-key");
  await shown.waitFor();
  const key = (await shown.textContent())!;
  expect(key).toMatch(/^sk_[0-9A-Za-z]{43}$/);
  await page.getByRole("button", { name: "Done: I have stored the key" }).click();
  await expect(shown).toHaveCount(0);
  return key;
}

const card = (page: Page, key: string): Locator => page.getByTestId(`key-${key.slice(0, 11)}`);

test.describe("keys: one-step requests, approval by domain, names, lineage and folded keys", () => {
  let server: ServerProcess;
  let smtp: TestSmtp;
  let cleanup: () => Promise<void>;
  let operatorCall: (path: string, body?: unknown) => Promise<Response>;

  test.beforeAll(async () => {
    const b = await backendEnv("pglite");
    cleanup = b.cleanup;
    // The operator's decisions, through the running server's operator endpoint (as the CLI makes them).
    operatorCall = (path, body) => {
      const endpoint = readOperatorEndpoint(b.dataDir)!;
      return fetch(`${endpoint.url}${path}`, {
        method: body === undefined ? "GET" : "POST",
        headers: { authorization: `Bearer ${endpoint.token}`, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    };
    smtp = await startTestSmtp();
    server = await startServerProcess({
      ...b.env,
      SMTP_URL: smtp.url,
      EMAIL_FROM: "Gateway <gateway@example.test>",
      ADMIN_EMAILS: "ops@example.test",
      KEY_APPROVAL: "domains",
      KEY_APPROVAL_DOMAINS: TRUSTED,
    });
  });
  test.afterAll(async () => {
    await server?.stop();
    await smtp?.close();
    await cleanup?.();
  });
  test.beforeEach(({ page }) => {
    page.on("dialog", (d) => void d.accept());
  });

  for (const [label, viewport] of [
    ["desktop", { width: 1280, height: 900 }],
    ["phone", { width: 390, height: 844 }],
  ] as const) {
    test.describe(`at ${viewport.width} px`, () => {
      test.use({ viewport });
      const api = (key: string) => fetch(`${server.url}/v1/key`, { headers: { "X-API-Key": key } });

      test("creates a key at once for an address at a listed domain, with its name, scopes and last day", async ({
        page,
      }) => {
        await signInThroughMail(page, server.url, smtp, `dev-${label}@${TRUSTED}`, "/keys/request");
        await expect(page.getByRole("heading", { level: 1 })).toHaveText("Create an API key");
        await expect(page.getByText("This server issues your key at once")).toBeVisible();
        // What "Intended use" needs is said before anything is refused.
        await expect(page.getByLabel("Intended use")).toHaveAccessibleDescription(/^At least 10 characters/);
        await page.getByLabel("Key name").fill("CI runner");
        // "Every area" is a choice made, not what no ticks mean: "only these" with none ticked is asked again.
        await expect(page.getByLabel("Every area, including areas added later")).toBeChecked();
        await expect(page.getByLabel("llm", { exact: true })).toBeHidden();
        await page.getByLabel("Only the areas ticked below").check();
        await describeUse(page);
        await page.getByRole("button", { name: "Create my key" }).click();
        await expect(page.locator("main").getByRole("alert")).toHaveText(
          "tick at least one area, or choose “Every area”",
        );
        // Sent back after the refusal as it was chosen: "only these", the boxes shown.
        await expect(page.getByLabel("Only the areas ticked below")).toBeChecked();
        await page.getByLabel("llm", { exact: true }).check();
        await page.getByLabel("data", { exact: true }).check();
        const last = dayFromNow(30);
        await page.getByLabel(/Last day it works/).fill(last);
        expect(await overflowsSideways(page)).toBe(false);
        await expectAccessibleInBothSchemes(page, `key-request-one-step-${label}`);
        await page.getByRole("button", { name: "Create my key" }).click();
        // The panel that shows the key once starts the first call in the caller's own tools, the key filled in.
        const secret = (await page.getByTestId("new-key").textContent())!;
        const firstCall = page.getByTestId("first-call");
        await expect(firstCall).toContainText(`export API_KEY=${secret}`);
        await expect(firstCall).toContainText(`curl ${server.url}/v1/chat/completions`);
        const forms = page.getByRole("group", { name: "First call" });
        await forms.getByRole("button", { name: "OpenAI SDK · TypeScript" }).click();
        await expect(firstCall).toContainText(
          `new OpenAI({ baseURL: "${server.url}/v1", apiKey: process.env.API_KEY })`,
        );
        await forms.getByRole("button", { name: "MCP client" }).click();
        await expect(firstCall).toContainText(`"Authorization": "Bearer ${secret}"`);
        expect(await overflowsSideways(page)).toBe(false);
        await expectAccessibleInBothSchemes(page, `key-first-call-${label}`);
        const key = await takeShownKey(page);

        const info = (await (await api(key)).json()) as { name: string; scopes: string[]; expires_at: string };
        expect(info).toMatchObject({ name: "CI runner", scopes: ["data", "llm"] });
        expect(info.expires_at.slice(0, 10)).toBe(dayFromNow(31));
        await page.goto(`${server.url}/keys`);
        const row = card(page, key);
        await expect(row).toContainText("data, llm");
        await expect(row).toContainText(`expires ${dayFromNow(31)} 00:00 UTC`);
      });

      test("refuses a second key of the same name with a clear message, keeping what was typed", async ({ page }) => {
        await signInThroughMail(page, server.url, smtp, `names-${label}@${TRUSTED}`, "/keys/request");
        await page.getByLabel("Key name").fill("Laptop");
        await describeUse(page);
        await page.getByRole("button", { name: "Create my key" }).click();
        const first = await takeShownKey(page);

        await page.goto(`${server.url}/keys/request`);
        await page.getByLabel("Key name").fill("laptop");
        await describeUse(page);
        await page.getByRole("button", { name: "Create my key" }).click();
        await expect(page.locator("main").getByRole("alert")).toHaveText(
          `“laptop” is taken: this account already has a key of that name (${first.slice(0, 11)}…). Choose another name.`,
        );
        await expect(page.getByLabel("Intended use")).toHaveValue("Running the nightly checks of our CI.");
        expect(await overflowsSideways(page)).toBe(false);
        await expectAccessibleInBothSchemes(page, `key-request-name-taken-${label}`);
        await page.getByLabel("Key name").fill("Laptop at home");
        await page.getByRole("button", { name: "Create my key" }).click();
        expect((await (await api(await takeShownKey(page))).json()).name).toBe("Laptop at home");

        // Renaming onto a taken name is refused the same way.
        await page.goto(`${server.url}/keys`);
        await card(page, first).getByText("Manage “Laptop”").click();
        await card(page, first).getByLabel("New name").fill("LAPTOP AT HOME");
        await card(page, first).getByRole("button", { name: "Rename" }).click();
        await expect(card(page, first).getByRole("alert")).toContainText("“LAPTOP AT HOME” is taken");
      });

      test("leaves a request from another domain to an operator, and says who decides and how they will hear", async ({
        page,
      }) => {
        const email = `guest-${label}@elsewhere.test`;
        await signInThroughMail(page, server.url, smtp, email, "/keys/request");
        await expect(page.getByRole("heading", { level: 1 })).toHaveText("Request an API key");
        await expect(page.getByText(`yours (${email}) is not one of them`)).toBeVisible();
        await page.getByLabel("Key name").fill("Thesis");
        await page.getByLabel(/Last day it works/).fill(dayFromNow(90));
        await describeUse(page);
        await page.getByRole("button", { name: "Send request" }).click();
        await expect(page.locator("main").getByRole("status")).toHaveText(
          `Request sent. An operator of this server decides on it. You will get an email at ${email} with the decision, which also shows on your keys page. Once it is approved, the key is created there and shown once.`,
        );
        // The answer leads on to where the request is followed.
        await page.getByRole("link", { name: "Go to your keys" }).click();
        await page.waitForURL(`${server.url}/keys`);
        const requests = page.getByRole("region", { name: "Requests" });
        await expect(requests).toContainText("waiting for an operator");
        await expect(requests).toContainText(`Areas: every area · last day: ${dayFromNow(90)} (UTC)`);
        await expect(requests).toContainText(`You will get an email at ${email}`);
        expect(await overflowsSideways(page)).toBe(false);
        await expectAccessibleInBothSchemes(page, `keys-request-pending-${label}`);

        // A second request, taken back before anyone decides: it leaves the list (and the operator's queue).
        await page.goto(`${server.url}/keys/request`);
        await page.getByLabel("Key name").fill("Side project");
        await describeUse(page);
        await page.getByRole("button", { name: "Send request" }).click();
        await page.getByRole("link", { name: "Go to your keys" }).click();
        await expect(requests.getByRole("listitem")).toHaveCount(2);
        await requests.getByRole("button", { name: "Withdraw the request for “Side project”" }).click();
        await expect(requests.getByRole("listitem")).toHaveCount(1);
        await expect(requests).not.toContainText("Side project");
        const queue = (await (await operatorCall("/requests?status=all")).json()) as {
          requests: { id: string; name: string; email: string; status: string }[];
        };
        const mine = queue.requests.filter((r) => r.email === email);
        expect(mine.map((r) => [r.name, r.status]).sort()).toEqual([
          ["Side project", "withdrawn"],
          ["Thesis", "pending"],
        ]);

        // A declined request shows the operator's note until its requester dismisses it.
        const thesis = mine.find((r) => r.name === "Thesis")!;
        const declined = await operatorCall(`/requests/${thesis.id}/decline`, { note: "Say which data you need" });
        expect(declined.status).toBe(200);
        await page.reload();
        await expect(requests).toContainText("declined");
        await expect(requests).toContainText("Operator’s note: Say which data you need");
        await requests.getByRole("button", { name: "Dismiss the declined request for “Thesis”" }).click();
        await expect(page.getByRole("region", { name: "Requests" })).toHaveCount(0);
      });

      test("shows a rotated key under its replacement, offers no Rotate in a grace period, and folds revoked and expired keys away", async ({
        page,
      }) => {
        await signInThroughMail(page, server.url, smtp, `rotate-${label}@${TRUSTED}`, "/keys/request");
        await page.getByLabel("Key name").fill("Lineage");
        await describeUse(page);
        await page.getByRole("button", { name: "Create my key" }).click();
        const first = await takeShownKey(page);

        await page.goto(`${server.url}/keys`);
        await card(page, first).getByText("Manage “Lineage”").click();
        await card(page, first).getByLabel("Old key keeps working for").selectOption("24");
        const asked: string[] = [];
        page.on("dialog", (d) => void asked.push(d.message()));
        await card(page, first).getByRole("button", { name: "Rotate" }).click();
        const shownNow = page.getByTestId("new-key");
        await shownNow.waitFor();
        expect(asked).toContain(
          `Rotate “Lineage (${first.slice(0, 11)}…)”? A new key is made and shown once; the old one keeps working for 24 hours.`,
        );
        // While it is shown once, the list has the new key already, in a card of its own.
        await expect(card(page, (await shownNow.textContent())!)).toBeVisible();
        const second = await takeShownKey(page);

        // One lineage: the replacement, and under it the key it replaces with when that stops.
        const lineage = card(page, second);
        const predecessor = card(page, first);
        await expect(lineage.getByRole("list", { name: "Keys “Lineage” replaces" })).toBeVisible();
        await expect(predecessor).toContainText(
          new RegExp(`Replaces ${first.slice(0, 11)}… · old key valid until \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC`),
        );
        await expect(page.getByText("Manage “Lineage”")).toHaveCount(1);
        await expect(predecessor.getByRole("button", { name: "Rotate" })).toHaveCount(0);
        await lineage.getByText("Manage “Lineage”").click();
        await expect(lineage.getByRole("button", { name: "Rotate" })).toHaveCount(1);
        expect((await api(first)).status).toBe(200);
        expect(await overflowsSideways(page)).toBe(false);
        await expectAccessibleInBothSchemes(page, `keys-lineage-${label}`);

        // The replacement revoked: the old key, still in its grace period, stands alone and cannot be rotated again.
        await lineage.getByRole("button", { name: "Revoke" }).click();
        const alone = card(page, first);
        await expect(alone).toContainText(`Rotated, but its replacement ${second.slice(0, 11)}… was revoked`);
        await alone.getByText("Manage “Lineage”").click();
        await expect(alone.getByRole("button", { name: "Revoke" })).toBeVisible();
        await expect(alone.getByRole("button", { name: "Rotate" })).toHaveCount(0);

        // A key rotated with no grace period expires at once: with the revoked one, folded away.
        await page.goto(`${server.url}/keys/request`);
        await page.getByLabel("Key name").fill("Short-lived");
        await describeUse(page);
        await page.getByRole("button", { name: "Create my key" }).click();
        const short = await takeShownKey(page);
        await page.goto(`${server.url}/keys`);
        await card(page, short).getByText("Manage “Short-lived”").click();
        await card(page, short).getByLabel("Old key keeps working for").selectOption("0");
        await card(page, short).getByRole("button", { name: "Rotate" }).click();
        const shortNext = await takeShownKey(page);
        expect((await api(short)).status).toBe(401);

        const folded = page.getByText("Revoked and expired (2)");
        await expect(folded).toBeVisible();
        await expect(card(page, second)).toBeHidden();
        await expect(card(page, short)).toBeHidden();
        await folded.click();
        await expect(card(page, second)).toContainText("revoked");
        await expect(card(page, short)).toContainText("expired");
        await expect(card(page, short)).toContainText(`replaced by ${shortNext.slice(0, 11)}…`);
        expect(await overflowsSideways(page)).toBe(false);
        await expectAccessibleInBothSchemes(page, `keys-folded-${label}`);
      });
    });
  }
});
