import { expect, test, type Cookie } from "@playwright/test";
import type { ServerProcess } from "../test/support/server-process.ts";
import { expectAccessible, overflowsSideways, screenshot } from "./console-session.ts";
import { startXaiPortal, type XaiPortal } from "./xai-portal.ts";

const USER = "slicer@example.test";

test.describe("usage you can slice by period, key, model and tag, in real Chromium", () => {
  let portal: XaiPortal;
  let server: ServerProcess;
  let key: string;
  let cookies: Cookie[];

  test.beforeAll(async ({ browser }) => {
    portal = await startXaiPortal("Sliced.", { METER_FLUSH_MS: "200" });
    server = portal.server;
    key = await portal.keyFor(USER, "Sliced key");

    // Three chats for the search feature, one for the summary, one untagged call.
    const chat = (tags: object) =>
      fetch(`${server.url}/v1/llm/chat`, {
        method: "POST",
        headers: { "X-API-Key": key, "Content-Type": "application/json", "x-gateway-metadata": JSON.stringify(tags) },
        body: JSON.stringify({ messages: [{ role: "user", content: "Slice this." }] }),
      });
    for (const tags of [
      { feature: "search", user: "u-1" },
      { feature: "search", user: "u-2" },
      { feature: "search" },
      { feature: "summary", user: "u-1" },
    ])
      expect((await chat(tags)).status).toBe(200);
    expect((await fetch(`${server.url}/v1/key`, { headers: { "X-API-Key": key } })).status).toBe(200);

    cookies = await portal.sessionOf(browser, USER);
  });
  test.afterAll(async () => {
    await portal?.stop();
  });

  for (const viewport of [
    { width: 1280, height: 900 },
    { width: 390, height: 844 },
  ]) {
    for (const colorScheme of ["light", "dark"] as const) {
      test(`at ${viewport.width} px, ${colorScheme}: this month matches /v1/usage, and the tag groups add up and open their requests`, async ({
        browser,
      }) => {
        const context = await browser.newContext({ viewport });
        await context.addCookies(cookies);
        const page = await context.newPage();
        await page.emulateMedia({ colorScheme });
        // What the API says of the key this month, before the dashboard reads its own numbers: the /v1/usage
        // call is itself one more request, counted once the meter writes it.
        const api = (await (await fetch(`${server.url}/v1/usage`, { headers: { "X-API-Key": key } })).json()) as {
          month: { requests: number; tokens: number };
        };
        const picker = (name: string) => page.getByRole("combobox", { name, exact: true });
        const [periodPicker, groupPicker, tagPicker] = [picker("Period"), picker("Group by"), picker("Tag")];
        await page.goto(`${server.url}/usage`);
        await periodPicker.selectOption("month");
        await expect(page.getByTestId("usage-period")).toContainText("This month");
        await expect(page.getByTestId("total-Requests")).toHaveText(String(api.month.requests + 1), {
          timeout: 15_000,
        });
        await expect(page.getByTestId("total-Tokens")).toHaveText(api.month.tokens.toLocaleString("en"));
        expect(api.month.tokens).toBe(4 * 1500);

        // By key: one key, its four chats' tokens and a cost that is never "$0.00".
        await groupPicker.selectOption("key");
        const keyTotal = page.getByTestId("key-total");
        await expect(keyTotal).toContainText("6,000");
        await expect(keyTotal.locator("td").last()).toHaveText(/^(< )?\$0\.\d*[1-9]/);

        // By tag: "feature" is the most used tag; its values add up to the tagged requests.
        await groupPicker.selectOption("tag");
        await expect(tagPicker).toHaveValue("feature");
        // Each row: value, requests, failed, tokens, cost.
        const requestsOf = (value: RegExp) => page.getByRole("row", { name: value }).locator("td").nth(1);
        const search = page.getByRole("row", { name: /^search\b/ });
        await expect(requestsOf(/^search\b/)).toHaveText("3");
        await expect(requestsOf(/^summary\b/)).toHaveText("1");
        const tagTotal = page.getByTestId("tag-total").locator("td");
        await expect(tagTotal.nth(0)).toHaveText("4");
        await expect(tagTotal.nth(2)).toHaveText("6,000");
        // The same rows as CSV, through the page's own link.
        const csvLink = page.getByRole("link", { name: "Download the tag table as CSV" });
        const csv = await (await page.request.get(`${server.url}${await csvLink.getAttribute("href")}`)).text();
        expect(csv.split("\r\n").some((line) => line.endsWith(",feature,search,3,0,4500,0.001350"))).toBe(true);
        await tagPicker.selectOption("user");
        await expect(requestsOf(/^u-1\b/)).toHaveText("2");
        await tagPicker.selectOption("feature");
        await expect(search).toBeVisible();

        // A custom period that ended before today has none of it.
        await periodPicker.selectOption("custom");
        const custom = page.getByRole("form", { name: "Custom period" });
        await custom.getByLabel("From").fill("2026-01-01");
        await custom.getByLabel("To").fill("2026-01-31");
        await custom.getByRole("button", { name: "Show these days" }).click();
        await expect(page.getByTestId("usage-period")).toContainText("2026-01-01 to 2026-01-31");
        await expect(page.getByTestId("total-Requests")).toHaveText("0");
        await expect(page.getByTestId("no-tags")).toBeVisible();

        await periodPicker.selectOption("7d");
        await expect(search).toBeVisible({ timeout: 15_000 });
        expect(await overflowsSideways(page)).toBe(false);
        await expectAccessible(page);
        await screenshot(page, `usage-slicing-${viewport.width}-${colorScheme}`);

        // A tag's value opens the request log at its requests.
        await page.getByRole("link", { name: "search (open its requests)" }).click();
        await page.waitForURL(/\/usage\/requests\?tag=feature%3Asearch/);
        await expect(page.locator('[data-testid^="request-"]')).toHaveCount(3);
        await context.close();
      });
    }
  }
});
