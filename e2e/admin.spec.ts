import { expect, test, type Browser, type Cookie } from "@playwright/test";
import { readOperatorEndpoint } from "../lib/gateway/keys/operator.ts";
import { backendEnv } from "../test/support/backends.ts";
import { startTestSmtp, type TestSmtp } from "../test/support/mail.ts";
import { startServerProcess, type ServerProcess } from "../test/support/server-process.ts";
import { expectAccessible, overflowsSideways, screenshot } from "./console-session.ts";
import { signInThroughMail } from "./sign-in.ts";

/**
 * The operator's pages with more keys than one page holds: the tabs, search and
 * paging, decisions confirmed before they are made and listed after with their notes, the limits the
 * gateway enforces as numbers, and an audit log in words. At a desktop and a phone width, light and dark.
 */

const OPERATOR = "ops@example.test";
const ALICE = "alice@example.test";
const CAROL = "carol@example.test";
const BULK = 30;

async function sessionOf(browser: Browser, server: ServerProcess, smtp: TestSmtp, email: string, path = "/") {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInThroughMail(page, server.url, smtp, email, path);
  return { context, page };
}

test.describe("the operator's pages", () => {
  test.describe.configure({ mode: "serial" });
  let server: ServerProcess;
  let smtp: TestSmtp;
  let cleanup: () => Promise<void>;
  let operatorCookies: Cookie[];
  const secrets = new Map<string, string>();

  test.beforeAll(async ({ browser }) => {
    const b = await backendEnv("pglite");
    cleanup = b.cleanup;
    smtp = await startTestSmtp();
    server = await startServerProcess({
      ...b.env,
      SMTP_URL: smtp.url,
      EMAIL_FROM: "Gateway <gateway@example.test>",
      ADMIN_EMAILS: OPERATOR,
    });
    // More keys than a page shows, issued through the running server's operator endpoint (as the CLI does).
    const endpoint = readOperatorEndpoint(b.dataDir)!;
    for (let i = 1; i <= BULK; i++) {
      const res = await fetch(`${endpoint.url}/keys`, {
        method: "POST",
        headers: { authorization: `Bearer ${endpoint.token}`, "content-type": "application/json" },
        body: JSON.stringify({ name: `Bulk ${String(i).padStart(2, "0")}`, email: `bulk${i}@example.test` }),
      });
      expect(res.status).toBe(201);
      secrets.set(`Bulk ${String(i).padStart(2, "0")}`, ((await res.json()) as { key: string }).key);
    }
    // Alice asks for two keys through the request form.
    const alice = await sessionOf(browser, server, smtp, ALICE, "/keys");
    for (const name of ["Alpha", "Beta"]) {
      await alice.page.goto(`${server.url}/keys/request`);
      await alice.page.getByLabel("Key name").fill(name);
      await alice.page.getByLabel("Intended use").fill("Trying the operator's pages out.");
      await alice.page.getByLabel("Research").check();
      await alice.page.getByRole("button", { name: "Send request" }).click();
      await alice.page.getByText("Request sent").waitFor();
    }
    await alice.context.close();
    const operator = await sessionOf(browser, server, smtp, OPERATOR);
    operatorCookies = await operator.context.cookies();
    await operator.context.close();
  });
  test.afterAll(async () => {
    await server?.stop();
    await smtp?.close();
    await cleanup?.();
  });
  test.beforeEach(async ({ context }) => {
    await context.addCookies(operatorCookies);
  });

  test("asks before each decision, and lists decided requests with their notes", async ({ page }) => {
    await page.goto(`${server.url}/admin`);
    await expect(page.getByRole("heading", { level: 2 })).toHaveText("Key requests waiting (2)");
    const alpha = page.getByTestId(/^key-request-/).filter({ hasText: "Alpha" });
    await alpha.getByLabel("Note about Alpha").fill("Welcome");

    // Dismissed: nothing is decided.
    const asked: string[] = [];
    page.once("dialog", (d) => {
      asked.push(d.message());
      void d.dismiss();
    });
    await alpha.getByRole("button", { name: "Approve Alpha" }).click();
    await expect
      .poll(() => asked)
      .toEqual([`Approve “Alpha” for ${ALICE}? They are told, with your note, and can then create the key.`]);
    await page.reload();
    await expect(page.getByRole("heading", { level: 2 })).toHaveText("Key requests waiting (2)");

    page.on("dialog", (d) => {
      asked.push(d.message());
      void d.accept();
    });
    await alpha.getByLabel("Note about Alpha").fill("Welcome");
    await alpha.getByRole("button", { name: "Approve Alpha" }).click();
    await expect(page.getByRole("heading", { level: 2 })).toHaveText("Key requests waiting (1)");
    const beta = page.getByTestId(/^key-request-/).filter({ hasText: "Beta" });
    await beta.getByLabel("Note about Beta").fill("Too broad for now");
    await beta.getByRole("button", { name: "Decline Beta" }).click();
    await page.getByText("Nothing to review.").waitFor();
    expect(asked[2]).toMatch(/^Decline “Beta” for alice@example\.test\? They are told, with your note/);
    expect((await smtp.waitFor(ALICE, /declined/)).text).toContain("Note from the operator: Too broad for now");

    await page.getByLabel("Show").selectOption("decided");
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page.getByRole("heading", { level: 2 })).toHaveText("Decided key requests (2)");
    await expect(alpha).toContainText(`Approved by ${OPERATOR}`);
    await expect(alpha).toContainText("Note: “Welcome”");
    await expect(alpha).toContainText("not collected yet");
    await expect(beta).toContainText(`Declined by ${OPERATOR}`);
    await expect(beta).toContainText("Note: “Too broad for now”");
    // Searching by the requester's address or a note.
    await page.getByRole("searchbox", { name: "Search key requests" }).fill("too broad");
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page.getByRole("heading", { level: 2 })).toHaveText("Decided key requests (1)");
    await expect(page.getByTestId(/^key-request-/)).toHaveCount(1);
  });

  test("pages and searches the keys, showing the limits the gateway enforces", async ({ page }) => {
    await page.goto(`${server.url}/admin/keys?q=bulk`);
    await expect(page.getByRole("heading", { level: 2 })).toHaveText(`Keys (${BULK})`);
    const pager = page.getByRole("navigation", { name: "Pages of keys" });
    await expect(pager).toContainText(`Page 1 of 2 · ${BULK} keys`);
    await expect(page.getByTestId(/^admin-key-/)).toHaveCount(25);
    await pager.getByRole("link", { name: "Next page" }).click();
    await expect(pager).toContainText("Page 2 of 2");
    await expect(page.getByTestId(/^admin-key-/)).toHaveCount(BULK - 25);
    // The search is kept from page to page.
    expect(new URL(page.url()).searchParams.get("q")).toBe("bulk");

    await page.getByRole("searchbox", { name: "Search keys" }).fill("bulk7@example.test");
    await page.getByRole("button", { name: "Search" }).click();
    const key = page.getByTestId(/^admin-key-/);
    await expect(key).toHaveCount(1);
    await expect(key).toContainText("Bulk 07");
    // No word "default" alone: the numbers in force, and where each comes from.
    await expect(key.getByTestId("limit-day")).toHaveText("10,000");
    await expect(key).toContainText("10,000 a day (service default, LIMIT_DAY)");
    await key.getByLabel(/^Requests a minute limit of Bulk 07/).fill("40");
    await key.getByRole("button", { name: /^Save limits of Bulk 07/ }).click();
    await expect(key.getByText("Limits saved.")).toBeVisible();
    await page.reload();
    await expect(key).toContainText("40 a minute (set for this key)");
    // The gateway enforces what the page says: the minute window is now the nearest to exhaustion.
    const answer = await fetch(`${server.url}/v1/key`, { headers: { "X-API-Key": secrets.get("Bulk 07")! } });
    expect(answer.headers.get("x-ratelimit-limit")).toBe("40");
    // Token windows sit beside the request windows, labelled apart; empty is no token limit.
    await expect(key.getByLabel(/^Tokens a minute limit of Bulk 07/)).toHaveAttribute("placeholder", "no limit");
    await key.getByLabel(/^Tokens a day limit of Bulk 07/).fill("250000");
    await key.getByRole("button", { name: /^Save limits of Bulk 07/ }).click();
    await expect(key.getByText("Limits saved.")).toBeVisible();
    const info = (await (
      await fetch(`${server.url}/v1/key`, { headers: { "X-API-Key": secrets.get("Bulk 07")! } })
    ).json()) as { limits: { minute: number }; token_limits: object };
    expect(info.token_limits).toEqual({ minute: null, day: 250_000 });
    expect(info.limits.minute).toBe(40);
    // The key's response-cache policy: off until set, then shown in words and applied to its calls.
    await expect(key.getByTestId("cache-policy")).toHaveText(
      "Response cache: only when a request asks (Cache-Control)",
    );
    await key.getByLabel(/^Cache age in seconds for Bulk 07/).fill("3600");
    await key.getByLabel(/^Cache shared with, for Bulk 07/).selectOption("user");
    await key.getByRole("button", { name: /^Save cache policy of Bulk 07/ }).click();
    await expect(key.getByText("Cache policy saved.")).toBeVisible();
    await page.reload();
    await expect(key.getByTestId("cache-policy")).toHaveText(
      "Response cache: answers up to 1 h old, kept for its owner's keys",
    );

    await page.goto(`${server.url}/admin/keys?page=abc`);
    await expect(page.getByText("This search cannot be read: page must be a page number.")).toBeVisible();
  });

  test("creates a key for someone by address, shown once, and changes its areas and last day", async ({ page }) => {
    const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
    await page.goto(`${server.url}/admin/keys`);
    const create = page.locator("details").filter({ hasText: "Create a key for someone" });
    await create.getByText("Create a key for someone").click();
    await create.getByLabel("Owner's email").fill(CAROL);
    await create.getByLabel("Key name").fill("Partner feed");
    await create.getByLabel("Only the areas ticked below").check();
    await create.getByLabel("data", { exact: true }).check();
    await create.getByLabel(/^Last day it works/).fill(day(10));
    await create.getByRole("button", { name: "Create the key" }).click();
    const shown = page.getByTestId("new-key");
    await expect(
      page.getByRole("heading", { name: /^New key “Partner feed” \(sk_\w+…\) for carol@example\.test$/ }),
    ).toBeVisible();
    const secret = (await shown.textContent())!;
    await expect(page.getByText(`Made “Partner feed” for ${CAROL}: areas: data; last day: ${day(10)}.`)).toBeVisible();
    const info = async () =>
      (await (await fetch(`${server.url}/v1/key`, { headers: { "X-API-Key": secret } })).json()) as {
        name: string;
        scopes: string[];
        expires_at: string | null;
      };
    expect(await info()).toMatchObject({ name: "Partner feed", scopes: ["data"] });
    expect((await info()).expires_at?.slice(0, 10)).toBe(day(11));
    expect(await overflowsSideways(page)).toBe(false);
    await expectAccessible(page);
    await screenshot(page, "admin-create-key");
    await page.getByRole("button", { name: "Done: I have stored the key" }).click();

    // Its areas and last day, changed on its card: every area, no last day.
    await page.goto(`${server.url}/admin/keys?q=${encodeURIComponent(CAROL)}`);
    const card = page.getByTestId(/^admin-key-/);
    await expect(card).toHaveCount(1);
    await card.getByText(/^Areas and last day of Partner feed/).click();
    await expect(card.getByLabel(/^Last day it works/)).toHaveValue(day(10));
    await card.getByLabel("Every area, including areas added later").check();
    await card.getByLabel(/^Last day it works/).fill("");
    await card.getByRole("button", { name: /^Save areas and last day of Partner feed/ }).click();
    await expect(card.getByText("Saved: areas: every area; last day: none (it does not expire).")).toBeVisible();
    expect(await info()).toMatchObject({ scopes: [], expires_at: null });
    await page.goto(`${server.url}/admin/audit`);
    await expect(page.getByRole("list", { name: "Audit entries" })).toContainText(
      "areas data → every area; last day " + day(10) + " → no expiry",
    );
  });

  test("names people by address and says what each change was, in words", async ({ page }) => {
    await page.goto(`${server.url}/admin/audit`);
    const entries = page.getByRole("list", { name: "Audit entries" });
    const text = (await entries.textContent()) ?? "";
    expect(text).toContain(`Key requested by ${ALICE}`);
    expect(text).toContain("“Alpha”, research use, every area, no expiry");
    expect(text).toContain(`Request approved by ${OPERATOR} · request for “Alpha”`);
    expect(text).toContain("note: “Welcome”");
    expect(text).toContain("per minute default → 40");
    expect(text).toContain(
      "only when a request asks (Cache-Control) → answers up to 1 h old, kept for its owner's keys",
    );
    expect(text).toContain("the operator CLI, through the server");
    expect(text).not.toMatch(/[{}]|user:/);
    await expect(page.getByRole("navigation", { name: "Pages of entries" })).toContainText("Page 1 of 1");

    await page.getByRole("searchbox", { name: "Search the audit log" }).fill(ALICE);
    await page.getByRole("button", { name: "Search" }).click();
    const found = entries.getByRole("listitem");
    await expect(found.filter({ hasText: `Key requested by ${ALICE}` })).toHaveCount(2);
    for (const entry of await found.all()) await expect(entry).toContainText(ALICE);
  });

  for (const [label, viewport] of [
    ["desktop", { width: 1280, height: 900 }],
    ["phone", { width: 390, height: 844 }],
  ] as const) {
    for (const colorScheme of ["light", "dark"] as const) {
      test(`every tab is readable and accessible at ${viewport.width} px, ${colorScheme}`, async ({ page }) => {
        await page.setViewportSize(viewport);
        await page.emulateMedia({ colorScheme });
        await page.goto(`${server.url}/admin?status=all`);
        const tabs = page.getByRole("navigation", { name: "Operator views" });
        for (const [tab, heading] of [
          ["Key requests", "Key requests"],
          ["Keys", "Keys"],
          ["Usage", "Usage, all keys"],
          ["Request log", "Request log, all keys"],
          ["Prices", "Model prices"],
          ["Routing", "Model routing"],
          ["Audit log", "Audit log"],
        ] as const) {
          await tabs.getByRole("link", { name: tab, exact: true }).click();
          await expect(page.getByRole("heading", { level: 1 })).toHaveText(heading);
          await expect(tabs.getByRole("link", { name: tab, exact: true })).toHaveAttribute("aria-current", "page");
          if (tab === "Usage") await page.getByTestId("endpoint-total").waitFor();
          expect(await overflowsSideways(page), `${tab} scrolls sideways`).toBe(false);
          await expectAccessible(page);
          await screenshot(page, `admin-tab-${tab.toLowerCase().replace(" ", "-")}-${label}-${colorScheme}`);
        }
      });
    }
  }
});
