import fs from "node:fs";
import path from "node:path";
import { expect, test, type Cookie } from "@playwright/test";
import { tempDir } from "../test/support/backends.ts";
import { freePort } from "../test/support/next-build.ts";
import type { ServerProcess } from "../test/support/server-process.ts";
import { expectAccessible, expectAccessibleInBothSchemes, overflowsSideways, screenshot } from "./console-session.ts";
import { startXaiPortal, type XaiPortal } from "./xai-portal.ts";

const USER = "logger@example.test";
const OPERATOR = "ops@example.test";
const STRANGER = "stranger@example.test";

test.describe("the request log in real Chromium", () => {
  let portal: XaiPortal;
  let server: ServerProcess;
  let routingDir: string;
  let key: string;
  const sessions: Record<string, Cookie[]> = {};

  test.beforeAll(async ({ browser }) => {
    // The alias `logged` tries a deployment nobody listens for first (a refused connection), then xAI's fake.
    // Its own model id, so the xai/grok-4-fast calls of the other tests never meet these deployments.
    routingDir = tempDir("request-log-routing");
    const routing = path.join(routingDir, "gateway.config.json");
    fs.writeFileSync(
      routing,
      JSON.stringify({
        deployments: [
          { name: "xai-down", provider: "xai", model: "grok-3-mini", origin: `http://127.0.0.1:${await freePort()}` },
          { name: "xai-up", provider: "xai", model: "grok-3-mini" },
        ],
        aliases: { logged: { strategy: "fallback", retries: 0, deployments: ["xai-down", "xai-up"] } },
      }),
    );
    // Model calls' bodies kept: the detail page shows the conversation.
    portal = await startXaiPortal("Logged.", {
      GATEWAY_CONFIG: routing,
      ADMIN_EMAILS: OPERATOR,
      REQUEST_LOG_BODIES: "true",
    });
    server = portal.server;
    // The operator's CLI issues the key to the user (through the running server's operator endpoint).
    key = await portal.keyFor(USER, "Log key");
    for (const email of [USER, OPERATOR, STRANGER]) sessions[email] = await portal.sessionOf(browser, email);
  });
  test.afterAll(async () => {
    await portal?.stop();
    if (routingDir) fs.rmSync(routingDir, { recursive: true, force: true });
  });

  /** A keyed chat call (tokens, provider, model) and the request id its response carried. */
  async function keyedCall(): Promise<string> {
    const res = await fetch(`${server.url}/v1/llm/chat`, {
      method: "POST",
      headers: { "X-API-Key": key, "Content-Type": "application/json" },
      body: JSON.stringify({ messages: [{ role: "user", content: "Log this." }] }),
    });
    expect(res.status).toBe(200);
    const id = res.headers.get("x-request-id");
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    return id!;
  }

  for (const [label, viewport] of [
    ["desktop", { width: 1280, height: 900 }],
    ["phone", { width: 390, height: 844 }],
  ] as const) {
    test.describe(`at ${viewport.width} px`, () => {
      test.use({ viewport });

      test("finds a keyed call by the X-Request-Id of its response, and shows every field of it", async ({
        page,
        context,
      }) => {
        await context.addCookies(sessions[USER]!);
        const id = await keyedCall();

        await page.goto(`${server.url}/usage`);
        await page.getByRole("navigation", { name: "Usage views" }).getByRole("link", { name: "Request log" }).click();
        await page.waitForURL(/\/usage\/requests$/);
        await page.getByLabel("Request id").fill(id);
        await page.getByRole("button", { name: "Search" }).click();
        await page.waitForURL((url) => url.searchParams.get("id") === id);

        const row = page.getByTestId(`request-${id}`);
        await expect(row).toHaveCount(1);
        for (const text of ["POST", "/v1/llm/chat", "200", "xai", "grok-4-fast", "1,000 + 500", "$0.00045", "Log key"])
          await expect(row).toContainText(text);
        expect(await overflowsSideways(page)).toBe(false);
        await expectAccessibleInBothSchemes(page, `request-log-${label}`);

        await row.getByRole("link", { name: id }).click();
        await page.waitForURL((url) => decodeURIComponent(url.pathname) === `/usage/requests/${id}`);
        await expect(page.getByRole("heading", { level: 1 })).toHaveText("Request");
        const fields = page.locator("dl");
        for (const text of [id, "/v1/llm/chat", "llm", "grok-4-fast", "1,000", "500", "$0.00045", "Log key"])
          await expect(fields).toContainText(text);
        // Answered by its first attempt: no timeline.
        await expect(page.getByRole("heading", { name: /^Attempts/ })).toHaveCount(0);
        // The bodies kept, as a conversation, and each as sent behind a disclosure.
        const conversation = page.getByRole("region", { name: "Conversation" });
        await expect(conversation.getByRole("list", { name: "Messages" })).toContainText("Log this.");
        await expect(conversation.getByTestId("conversation-answer")).toHaveText("Logged.");
        await conversation.getByText("Answer as sent").click();
        await expect(conversation.getByRole("region", { name: "Answer as sent" })).toContainText(
          '"content": "Logged."',
        );
        expect(await overflowsSideways(page)).toBe(false);
        await expectAccessibleInBothSchemes(page, `request-detail-${label}`);
      });
    });
  }

  test("shows each attempt of a call that fell over, on the owner's and the operator's detail pages", async ({
    browser,
  }) => {
    const res = await fetch(`${server.url}/v1/chat/completions`, {
      method: "POST",
      headers: { "X-API-Key": key, "Content-Type": "application/json" },
      body: JSON.stringify({ model: "logged", messages: [{ role: "user", content: "Fall over." }] }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-gateway-attempts")).toBe("2");
    const id = res.headers.get("x-request-id")!;

    for (const [email, base] of [
      [USER, "/usage/requests"],
      [OPERATOR, "/admin/requests"],
    ] as const) {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
      await context.addCookies(sessions[email]!);
      const page = await context.newPage();
      await page.goto(`${server.url}${base}/${id}`);
      await expect(page.getByRole("heading", { level: 3, name: "Attempts (2)" })).toBeVisible();
      const attempts = page.getByRole("region", { name: "Attempts" }).getByTestId("attempt");
      await expect(attempts).toHaveCount(2);
      for (const text of [
        "xai-down",
        "xai",
        "grok-3-mini",
        "failed",
        "connection failed, fell over to the next deployment",
      ])
        await expect(attempts.nth(0)).toContainText(text);
      for (const text of ["xai-up", "answered"]) await expect(attempts.nth(1)).toContainText(text);
      expect(await overflowsSideways(page)).toBe(false);
      await expectAccessible(page);
      if (email === USER) await screenshot(page, "request-attempts-phone");
      await context.close();
    }
  });

  test("filters by status, and names a bad filter instead of failing", async ({ page, context }) => {
    await context.addCookies(sessions[USER]!);
    const ok = await keyedCall();
    const refused = await fetch(`${server.url}/v1/llm/chat`, {
      method: "POST",
      headers: {
        "X-API-Key": key,
        "Content-Type": "application/json",
        "User-Agent": "log-test/2.0",
        "x-gateway-metadata": JSON.stringify({ feature: "digest", session: "s-42" }),
      },
      body: JSON.stringify({ messages: [] }),
    });
    expect(refused.status).toBe(400);
    const bad = refused.headers.get("x-request-id")!;
    const answered = ((await refused.json()) as { error: string }).error;

    await page.goto(`${server.url}/usage/requests`);
    await page.getByLabel("Status").selectOption("4xx");
    await page.getByRole("button", { name: "Search" }).click();
    await page.waitForURL(/status=4xx/);
    await expect(page.getByTestId(`request-${bad}`)).toHaveCount(1);
    await expect(page.getByTestId(`request-${ok}`)).toHaveCount(0);

    // The caller's tags find it, and its page says what went wrong, to whom, in the caller's words.
    await page.goto(`${server.url}/usage/requests`);
    await page.getByLabel("Tag (name:value)").fill("feature:digest");
    await page.getByRole("button", { name: "Search" }).click();
    await page.waitForURL(/tag=feature/);
    await expect(page.getByTestId(`request-${bad}`)).toHaveCount(1);
    await expect(page.getByTestId(`request-${ok}`)).toHaveCount(0);
    // The filtered log as CSV: the same rows, and a caller's text never run as a spreadsheet formula.
    const formula = await fetch(`${server.url}/v1/llm/chat`, {
      method: "POST",
      headers: {
        "X-API-Key": key,
        "Content-Type": "application/json",
        "User-Agent": "=HYPERLINK(1)",
        "x-gateway-metadata": JSON.stringify({ feature: "digest" }),
      },
      body: JSON.stringify({ messages: [] }),
    });
    const spreadsheet = formula.headers.get("x-request-id")!;
    await page.reload();
    const download = page.waitForEvent("download");
    await page.getByRole("link", { name: "Download these requests as CSV" }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^requests-\d{4}-\d\d-\d\d\.csv$/);
    const lines = fs
      .readFileSync((await file.path())!, "utf8")
      .trim()
      .split("\r\n");
    expect(lines[0]).toBe(
      "time,request_id,key_name,key_prefix,method,route,area,status,latency_ms,provider,model,prompt_tokens,completion_tokens,estimated_cost_usd,cache,error,user_agent,tags",
    );
    // Only the tagged requests, newest first, never the untagged call.
    expect(lines.slice(1).map((l) => l.split(",")[1])).toEqual([spreadsheet, bad]);
    expect(lines[1]).toContain(`"'=HYPERLINK(1)"`);
    expect(lines[2]).toContain("log-test/2.0");
    expect(lines[2]).toContain("feature=digest; session=s-42");
    expect(lines[2]).toContain(",Log key,");

    await page.goto(`${server.url}/usage/requests/${bad}`);
    const fields = page.locator("main dl").first();
    await expect(fields).toContainText(`Error${answered}`);
    await expect(fields).toContainText("User agentlog-test/2.0");
    await expect(fields).toContainText("feature: digest");
    await expect(fields).toContainText("session: s-42");
    await expectAccessible(page);
    await screenshot(page, "request-log-error-detail");

    const res = await page.goto(`${server.url}/usage/requests?from=yesterday&status=3xx`);
    expect(res?.status()).toBe(200);
    // The page's own alert, not Next's (empty) route announcer.
    const problems = page.getByRole("alert").filter({ hasText: "The search could not be run" });
    await expect(problems).toContainText("From must be a date");
    await expect(problems).toContainText("Status must be one of 2xx, 4xx, 429, 5xx");
    await page.goto(`${server.url}/usage/requests?tag=nocolon`);
    await expect(page.getByRole("alert").filter({ hasText: "The search could not be run" })).toContainText(
      "Tag is not name:value",
    );
    await expectAccessible(page);
  });

  test("shows the operator every key's request with its owner, and nobody else's request to a stranger", async ({
    browser,
  }) => {
    const id = await keyedCall();

    const operator = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: "dark" });
    await operator.addCookies(sessions[OPERATOR]!);
    const page = await operator.newPage();
    await page.goto(`${server.url}/admin`);
    await page.getByRole("navigation", { name: "Operator views" }).getByRole("link", { name: "Request log" }).click();
    await page.waitForURL(/\/admin\/requests$/);
    await page.getByLabel("Request id").fill(id);
    await page.getByRole("button", { name: "Search" }).click();
    const row = page.getByTestId(`request-${id}`);
    await expect(row).toContainText(USER);
    await expectAccessible(page);
    await screenshot(page, "request-log-operator-dark");
    await row.getByRole("link", { name: id }).click();
    await expect(page.locator("dl")).toContainText(USER);
    await operator.close();

    const stranger = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await stranger.addCookies(sessions[STRANGER]!);
    const other = await stranger.newPage();
    // Another user's request reads as one that does not exist.
    const res = await other.goto(`${server.url}/usage/requests/${id}`);
    expect(res?.status()).toBe(404);
    await expect(other.getByRole("heading", { level: 1 })).toHaveText("No such request");
    await expectAccessible(other);
    await other.goto(`${server.url}/usage/requests?id=${id}`);
    await expect(other.getByText("No requests match.")).toBeVisible();
    // And the operator's log is the operator's.
    await other.goto(`${server.url}/admin/requests`);
    await expect(other.getByRole("heading", { level: 1 })).toHaveText("Operators only");
    await stranger.close();
  });
});
