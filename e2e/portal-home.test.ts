import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backendEnv } from "../test/support/backends.ts";
import { startServerProcess, type ServerProcess } from "../test/support/server-process.ts";
import { launchChromium } from "./browser.ts";

describe("the portal home in real Chromium", () => {
  let server: ServerProcess;
  let browser: Browser;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    const b = await backendEnv("pglite");
    cleanup = b.cleanup;
    [server, browser] = await Promise.all([startServerProcess(b.env), launchChromium()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await cleanup?.();
  });

  it("renders the product with its styles and links to the API description", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
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
