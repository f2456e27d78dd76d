import { expect, test } from "@playwright/test";
import { backendEnv } from "../test/support/backends.ts";
import { startServerProcess, type ServerProcess } from "../test/support/server-process.ts";
import { expectAccessibleInBothSchemes, overflowsSideways } from "./console-session.ts";

/** Whether the page scrolls sideways: nothing on a phone-width page may be wider than the screen. */
test.describe("the portal home in real Chromium", () => {
  let server: ServerProcess;
  let cleanup: () => Promise<void>;
  test.use({ viewport: { width: 1280, height: 800 } });
  test.beforeAll(async () => {
    const b = await backendEnv("pglite");
    cleanup = b.cleanup;
    server = await startServerProcess(b.env);
  });
  test.afterAll(async () => {
    await server?.stop();
    await cleanup?.();
  });

  test("renders the product with its styles and links to the API description", async ({ page }) => {
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    const res = await page.goto(`${server.url}/`, { waitUntil: "networkidle" });
    expect(res?.status()).toBe(200);
    await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Unified API Gateway");
    // Tailwind applied: the call to action is indigo, not the browser's default blue on white.
    const background = await page
      .getByRole("link", { name: "Get an API key" })
      .evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(background).not.toBe("rgba(0, 0, 0, 0)");
    const shot = await page.screenshot({ fullPage: true });
    expect(shot.subarray(1, 4).toString()).toBe("PNG");
    expect(shot.length).toBeGreaterThan(10_000);

    await page.getByRole("link", { name: "OpenAPI description" }).click();
    await page.waitForURL(/openapi\.json$/);
    expect(await page.textContent("body")).toContain('"openapi":"3.1.0"');
    expect(errors).toEqual([]);
  });

  test("the keyboard's first stop skips the site's navigation to the page", async ({ page }) => {
    await page.goto(`${server.url}/`);
    await page.keyboard.press("Tab");
    const skip = page.getByRole("link", { name: "Skip to content" });
    await expect(skip).toBeFocused();
    await expect(skip).toBeVisible();
    await page.keyboard.press("Enter");
    await expect(page.locator("#content")).toBeFocused();
    // The next stop is the page's own first link, not the header's.
    await page.keyboard.press("Tab");
    const focused = await page.evaluate(() => document.activeElement?.closest("header") === null);
    expect(focused).toBe(true);
  });

  test("an area card opens its tag's section of the API reference", async ({ page }) => {
    await page.goto(`${server.url}/`);
    await page.getByRole("link", { name: "Language models" }).click();
    await page.waitForURL(/\/docs#tag\/llm$/);
    // Scalar opens the tag the address names and scrolls its section into view.
    const heading = page.getByRole("heading", { name: "LLM", exact: true });
    await heading.waitFor({ timeout: 60_000 });
    await expect(heading).toBeInViewport();
    await expect(page.getByText("/v1/llm/chat", { exact: true }).first()).toBeVisible();
  });

  for (const [label, viewport] of [
    ["desktop", { width: 1280, height: 800 }],
    ["phone", { width: 390, height: 844 }],
  ] as const) {
    test.describe(`at ${viewport.width} px`, () => {
      test.use({ viewport });

      test("says how to get a key, with one call to action, and samples this server's own origin", async ({ page }) => {
        await page.goto(`${server.url}/`);
        const steps = page.getByRole("region", { name: "How to get a key" }).getByRole("listitem");
        await expect(steps).toHaveCount(4);
        // AUTO_APPROVE_KEYS is off by default: an operator decides.
        await expect(steps.nth(2)).toContainText("An operator reviews the request");
        // The server listens on a port picked at start, never 3000: the sample follows the request.
        const sample = page.getByTestId("sample");
        await expect(sample).toContainText(`curl ${server.url}/v1/chat/completions`);
        await expect(sample).toContainText('-H "Authorization: Bearer $API_KEY"');
        // The first call in the caller's own SDK, each form a button away and copied whole.
        const forms = page.getByRole("group", { name: "First call" });
        await forms.getByRole("button", { name: "OpenAI SDK · Python" }).click();
        await expect(sample).toContainText(`OpenAI(base_url="${server.url}/v1", api_key=os.environ["API_KEY"])`);
        await forms.getByRole("button", { name: "Anthropic SDK · TypeScript" }).click();
        await expect(sample).toContainText(`new Anthropic({ baseURL: "${server.url}", apiKey: process.env.API_KEY })`);
        await forms.getByRole("button", { name: "MCP client" }).click();
        await expect(sample).toContainText(`claude mcp add --transport http gateway ${server.url}/v1/mcp`);
        await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url });
        await page.getByRole("button", { name: "Copy MCP client" }).click();
        await expect(page.getByRole("region", { name: "Try it" }).getByRole("status")).toHaveText("Copied.");
        expect((await page.evaluate(() => navigator.clipboard.readText())).trim()).toBe(
          (await sample.innerText()).trim(),
        );
        await forms.getByRole("button", { name: "Check your key" }).click();
        await expect(sample).toHaveText(`curl -H "X-API-Key: $API_KEY" ${server.url}/v1/key`);
        await expect(page.getByRole("region", { name: "Try it" })).toContainText("10,000 requests a day");
        expect(await overflowsSideways(page)).toBe(false);
        await expectAccessibleInBothSchemes(page, `home-${label}`);

        await page.getByRole("link", { name: "Get an API key" }).click();
        // Signed out, the request form first sends the visitor to sign in, and back to it afterwards.
        await page.waitForURL(/\/sign-in\?callbackUrl=%2Fkeys%2Frequest$/);
        await expect(page.getByTestId("sign-in-reason")).toContainText("Requesting an API key needs an account");
      });

      test("has a favicon", async ({ page }) => {
        await page.goto(`${server.url}/`);
        const href = await page.locator('head link[rel="icon"]').first().getAttribute("href");
        expect(href).toMatch(/^\/icon\.svg/);
        const icon = await page.request.get(`${server.url}${href}`);
        expect(icon.status()).toBe(200);
        expect(icon.headers()["content-type"]).toMatch(/^image\/svg\+xml/);
      });

      test("answers unknown pages with the portal's 404, and unknown API paths with the gateway's JSON", async ({
        page,
      }) => {
        // A path no page claims (the catch-all route's page), and a page's own notFound() (Next's not-found).
        for (const [path, name] of [
          ["/no-such-page", "catch-all"],
          ["/clinical/no-such-condition", "not-found"],
        ] as const) {
          const res = await page.goto(`${server.url}${path}`);
          expect(res?.status(), path).toBe(404);
          await expect(page.getByRole("heading", { level: 1 })).toHaveText("This page could not be found");
          await expect(page.getByRole("link", { name: "Portal home" })).toHaveAttribute("href", "/");
          await expect(page.getByRole("link", { name: "API reference" })).toHaveAttribute("href", "/docs");
          expect(await overflowsSideways(page)).toBe(false);
          await expectAccessibleInBothSchemes(page, `404-${name}-${label}`);
        }
        await page.getByRole("link", { name: "API reference" }).click();
        await page.waitForURL(/\/docs$/);

        const api = await page.request.get(`${server.url}/v1/no-such-endpoint`, {
          headers: { accept: "text/html,application/xhtml+xml,*/*;q=0.8" },
        });
        expect(api.status()).toBe(404);
        expect(api.headers()["content-type"]).toMatch(/^application\/json/);
        expect(await api.json()).toEqual({ error: "no such endpoint: GET /v1/no-such-endpoint" });
      });
    });
  }
});
