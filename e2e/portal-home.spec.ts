import { expect, test } from "@playwright/test";
import { backendEnv } from "../test/support/backends.ts";
import { startServerProcess, type ServerProcess } from "../test/support/server-process.ts";

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
    // Tailwind applied: the primary link is indigo, not the browser's default blue on white.
    const background = await page
      .getByRole("link", { name: "OpenAPI description" })
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
});
