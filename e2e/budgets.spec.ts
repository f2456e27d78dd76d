import { expect, test, type Cookie, type Page } from "@playwright/test";
import type { TestSmtp } from "../test/support/mail.ts";
import type { ServerProcess } from "../test/support/server-process.ts";
import { expectAccessible, overflowsSideways, screenshot } from "./console-session.ts";
import { startXaiPortal, type XaiPortal } from "./xai-portal.ts";

const USER = "budgeter@example.test";
const OPERATOR = "prices@example.test";

/** The numbers in one column of a table's body rows (all but the total row), and the total row's. */
async function columnAddsUp(page: Page, testId: string, column: number): Promise<{ rows: number; total: number }> {
  return page.getByTestId(testId).evaluate((totalRow, col) => {
    const num = (cell: Element | undefined) => Number((cell?.textContent ?? "0").replace(/[^0-9.]/g, ""));
    const body = totalRow.parentElement!;
    const rows = [...body.querySelectorAll("tr")].filter((r) => r !== totalRow);
    // The total row's first cell spans two columns.
    return {
      rows: rows.reduce((sum, r) => sum + num(r.children[col]), 0),
      total: num(totalRow.children[col - 1]),
    };
  }, column);
}

test.describe("usage you can trust and monthly budgets, in real Chromium", () => {
  let portal: XaiPortal;
  let server: ServerProcess;
  let smtp: TestSmtp;
  let key: string;
  let prefix: string;
  const sessions: Record<string, Cookie[]> = {};

  test.beforeAll(async ({ browser }) => {
    portal = await startXaiPortal("Counted.", {
      ADMIN_EMAILS: OPERATOR,
      BUDGET_MAX_REQUESTS: "1000",
      METER_FLUSH_MS: "200",
    });
    ({ server, smtp } = portal);
    key = await portal.keyFor(USER, "Budget key");
    prefix = key.slice(0, 11);
    for (const email of [USER, OPERATOR]) sessions[email] = await portal.sessionOf(browser, email);
  });
  test.afterAll(async () => {
    await portal?.stop();
  });

  const chat = () =>
    fetch(`${server.url}/v1/llm/chat`, {
      method: "POST",
      headers: { "X-API-Key": key, "Content-Type": "application/json" },
      body: JSON.stringify({ messages: [{ role: "user", content: "Count this." }] }),
    });

  test("the owner sets a budget with a hard stop, is mailed at 80 % and 100 %, and the key is stopped with a 429 naming it", async ({
    page,
    context,
  }) => {
    await context.addCookies(sessions[USER]!);
    // The budget form submits through React. On a loaded machine a click made while the page was still
    // settling (a second round of route prefetches in flight) sent no request, so the page goes quiet first.
    // The usage page says where a budget is set: on the key's own card.
    await page.goto(`${server.url}/usage`, { waitUntil: "networkidle" });
    const card = page.getByTestId(`budget-${prefix}`);
    await expect(card).toContainText("No budget");
    await card.getByRole("link", { name: "Set it on the key's card" }).click();
    await page.waitForURL(`${server.url}/keys#key-${prefix}`);
    await page.waitForLoadState("networkidle");
    const keyCard = page.getByTestId(`key-${prefix}`);
    await keyCard.getByText("Manage “Budget key”").click();
    const editor = keyCard.getByRole("region", { name: "Monthly budget of “Budget key”" });
    await editor.getByLabel("Budget in").selectOption("requests");
    await editor.getByLabel("Monthly limit").fill("5000");
    await editor.getByRole("button", { name: "Set budget" }).click();
    await expect(editor.getByRole("alert")).toHaveText(
      "The monthly limit is at most 1,000 requests a month (the operator's ceiling)",
    );
    await editor.getByLabel("Monthly limit").fill("5");
    await editor.getByLabel("Hard stop at 100 %").check();
    await editor.getByRole("button", { name: "Set budget" }).click();
    await expect(editor.getByRole("status").first()).toContainText("Budget set: 0 of 5 requests this month");

    const since = smtp.mails.length;
    for (let i = 0; i < 5; i++) expect((await chat()).status).toBe(200);
    await smtp.waitFor(USER, /used 80% of its monthly budget/, { since });
    const last = await smtp.waitFor(USER, /used all of its monthly budget/, { since });
    expect(last.text).toMatch(/5 of 5 requests/);
    const refused = await chat();
    expect(refused.status).toBe(429);
    const body = (await refused.json()) as { error: { code: string; message: string; retry_after: number } };
    expect(body.error.code).toBe("rate_limit_exceeded");
    expect(body.error.message).toMatch(/^monthly budget exceeded: this key.s budget of 5 requests for/);
    expect(body.error.retry_after).toBeGreaterThan(0);

    // Used up shows on the key's card and on the usage page alike.
    await page.reload();
    await expect(keyCard).toContainText("5 of 5 requests (100%)");
    await expect(keyCard).toContainText("Used up: requests with this key are refused until next month.");
    await page.goto(`${server.url}/usage`);
    await expect(card).toContainText("5 of 5 requests (100%)");
    await expect(card).toContainText("Used up: requests with this key are refused until next month.");
    expect(smtp.mails.slice(since).filter((m) => m.to.includes(USER))).toHaveLength(2);
  });

  test("the operator edits a model's price, and the user's estimate follows it", async ({ browser }) => {
    const operator = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await operator.addCookies(sessions[OPERATOR]!);
    const page = await operator.newPage();
    await page.goto(`${server.url}/admin/usage`);
    await page.getByRole("link", { name: "the model price table" }).click();
    await page.waitForURL(/\/admin\/prices$/);
    await page.getByLabel("Provider", { exact: true }).fill("xai");
    await page.getByLabel("Model", { exact: true }).fill("grok-4-fast");
    await page.getByLabel("Input $ / 1M").fill("10");
    await page.getByLabel("Output $ / 1M").fill("20");
    await page.getByRole("button", { name: "Save price" }).click();
    await expect(page.getByRole("status").first()).toContainText("xai/grok-4-fast: $10 in, $20 out");
    const row = page.getByRole("row", { name: /grok-4-fast\b.*operator/ });
    await expect(row).toContainText("$10");
    await expect(row.getByRole("button", { name: "Reset xai/grok-4-fast to its default" })).toBeVisible();
    await operator.close();

    const user = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await user.addCookies(sessions[USER]!);
    const usage = await user.newPage();
    await usage.goto(`${server.url}/usage`);
    // Five calls of 1,000 + 500 tokens at $10 and $20 per million: $0.10.
    await usage.getByLabel("Group by").selectOption("model");
    await expect(usage.getByTestId("model-total")).toContainText("$0.10", { timeout: 15_000 });
    await expect(usage.getByRole("row", { name: /grok-4-fast-2026/ })).toContainText("$0.10");
    await user.close();
  });

  for (const [label, viewport] of [
    ["desktop", { width: 1280, height: 900 }],
    ["phone", { width: 390, height: 844 }],
  ] as const) {
    for (const colorScheme of ["light", "dark"] as const) {
      test(`at ${viewport.width} px, ${colorScheme}: the dashboard's breakdowns add up, the budget shows, the price table reads`, async ({
        browser,
      }) => {
        const context = await browser.newContext({ viewport });
        await context.addCookies(sessions[USER]!);
        const page = await context.newPage();
        await page.emulateMedia({ colorScheme });
        await page.goto(`${server.url}/usage`);
        await expect(page.getByTestId("endpoint-total")).toBeVisible({ timeout: 15_000 });
        for (const column of [2, 3, 4, 5, 6, 7]) {
          const { rows, total } = await columnAddsUp(page, "endpoint-total", column);
          expect(rows, `endpoint column ${column}`).toBe(total);
        }
        await page.getByLabel("Group by").selectOption("model");
        await expect(page.getByTestId("model-total")).toBeVisible();
        for (const column of [2, 3, 4]) {
          const { rows, total } = await columnAddsUp(page, "model-total", column);
          expect(rows, `model column ${column}`).toBe(total);
        }
        // Five calls and the one refused by the budget (a 429 is metered, though it does not count against the budget).
        await expect(page.getByTestId("total-Requests")).toHaveText("6");
        await expect(page.getByText("Latency p95 (estimate)")).toBeVisible();
        await expect(page.getByTestId(`budget-${prefix}`)).toContainText("5 of 5 requests");
        expect(await overflowsSideways(page)).toBe(false);
        await expectAccessible(page);
        await screenshot(page, `usage-budgets-${label}-${colorScheme}`);
        await context.close();

        const operator = await browser.newContext({ viewport });
        await operator.addCookies(sessions[OPERATOR]!);
        const prices = await operator.newPage();
        await prices.emulateMedia({ colorScheme });
        await prices.goto(`${server.url}/admin/prices`);
        await expect(prices.getByRole("heading", { level: 1 })).toHaveText("Model prices");
        await expect(prices.getByRole("row", { name: /claude-sonnet-4-5/ })).toContainText("$15");
        expect(await overflowsSideways(prices)).toBe(false);
        await expectAccessible(prices);
        await screenshot(prices, `admin-prices-${label}-${colorScheme}`);
        await operator.close();
      });
    }
  }
});
