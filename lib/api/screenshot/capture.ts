import type { Browser, BrowserContext, Route } from "playwright-core";
import { findChromium } from "../../chromium-path.ts";
import { GatewayError } from "../../errors.ts";
import { checkDestination, parseUserUrl, safeFetch, type SafeFetchOptions } from "../../upstream/safe-fetch.ts";
import { keptPageHeaders } from "../../upstream/untrusted-response.ts";
import { chromiumArgs, sandboxFallbackLauncher } from "./browser-launch.ts";

export type WaitStrategy = "networkidle" | "load" | "domcontentloaded" | "commit";
export type Shot = { width: number; height: number; scale: number; fullPage: boolean };
export type CaptureRequest = { url: string; shots: Shot[]; wait: WaitStrategy; selector?: string; extraWaitMs: number };
export type CaptureResult = { png: Buffer; width: number; height: number };

/** chromiumPath: CHROMIUM_PATH; undefined: the browser is looked for (lib/chromium-path.ts). */
export type CaptureSettings = { chromiumPath?: string; concurrency: number; queue: number; timeoutMs: number };

/**
 * Website screenshots in one shared Chromium with a bounded number of concurrent pages and a bounded
 * queue (503 past it). Every request a page makes is fetched by the gateway itself through
 * safeFetch — the same rules as /v1/proxy, connection pinned to the checked address — and handed to
 * the page, so no page can reach a private address even through DNS rebinding.
 */
export class ScreenshotService {
  private browser: Promise<Browser> | undefined;
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  private readonly launchBrowser: () => Promise<Browser>;
  /** The executable the next launch starts, found just before it. */
  private executablePath: string | undefined;

  constructor(
    private readonly settings: CaptureSettings,
    private readonly fetchOptions: () => SafeFetchOptions,
    warn: (message: string, err: unknown) => void = () => {},
  ) {
    this.launchBrowser = sandboxFallbackLauncher(
      // playwright-core is loaded with the first browser: ~35 MB of heap a server without screenshots skips.
      async (sandbox) =>
        (await import("playwright-core")).chromium.launch({
          executablePath: this.executablePath,
          headless: true,
          chromiumSandbox: sandbox,
          args: chromiumArgs(sandbox),
        }),
      warn,
    );
  }

  async capture(req: CaptureRequest): Promise<CaptureResult[]> {
    // Refuse a private page with 403 up front, as /v1/proxy does, before taking a browser slot.
    await checkDestination(parseUserUrl(req.url), this.fetchOptions());
    await this.acquire();
    let context: BrowserContext | undefined;
    const deadline = this.settings.timeoutMs + req.extraWaitMs;
    const timer = new Promise<never>((_, reject) =>
      setTimeout(
        () => reject(new GatewayError(504, `screenshot did not finish within ${Math.round(deadline / 1000)} s`)),
        deadline,
      ).unref(),
    );
    try {
      const work = (async () => {
        const browser = await this.launch();
        const results: CaptureResult[] = [];
        for (const shot of req.shots) {
          context = await browser.newContext({
            viewport: { width: shot.width, height: shot.height },
            deviceScaleFactor: shot.scale,
            serviceWorkers: "block",
            javaScriptEnabled: true,
            acceptDownloads: false,
          });
          await context.route("**/*", (route) => this.fulfil(route));
          await context.routeWebSocket(/.*/, (ws) =>
            ws.close({ code: 1008, reason: "websockets are not allowed in screenshots" }),
          );
          const page = await context.newPage();
          const response = await page
            .goto(req.url, { waitUntil: req.wait, timeout: this.settings.timeoutMs })
            .catch((err: Error) => {
              throw new GatewayError(502, `page could not be loaded: ${err.message.split("\n")[0]}`);
            });
          if (!response) throw new GatewayError(502, "page could not be loaded");
          if (req.extraWaitMs) await page.waitForTimeout(req.extraWaitMs);
          let png: Buffer;
          if (req.selector) {
            const element = page.locator(req.selector).first();
            await element.waitFor({ state: "visible", timeout: 5_000 }).catch(() => {
              throw new GatewayError(400, `customSelector '${req.selector}' matched no visible element`);
            });
            png = await element.screenshot({ type: "png" });
          } else png = await page.screenshot({ type: "png", fullPage: shot.fullPage });
          results.push({ png, width: png.readUInt32BE(16), height: png.readUInt32BE(20) });
          await context.close();
          context = undefined;
        }
        return results;
      })();
      return await Promise.race([work, timer]);
    } finally {
      await context?.close().catch(() => {});
      this.release();
    }
  }

  async close(): Promise<void> {
    const browser = await this.browser?.catch(() => undefined);
    this.browser = undefined;
    await browser?.close();
  }

  private launch(): Promise<Browser> {
    if (!this.browser) {
      try {
        this.executablePath = findChromium(this.settings.chromiumPath);
      } catch (err) {
        throw new GatewayError(503, `screenshots are not available: ${(err as Error).message}`);
      }
    }
    this.browser ??= this.launchBrowser();
    this.browser.catch(() => (this.browser = undefined));
    return this.browser;
  }

  private async fulfil(route: Route): Promise<void> {
    const request = route.request();
    const url = request.url();
    if (url.startsWith("data:") || url.startsWith("blob:")) return route.continue();
    if (request.method() !== "GET") return route.abort("blockedbyclient");
    try {
      const res = await safeFetch(url, this.fetchOptions());
      await route.fulfill({ status: res.status, headers: keptPageHeaders(res.headers), body: res.body });
    } catch {
      await route.abort("blockedbyclient").catch(() => {});
    }
  }

  private async acquire(): Promise<void> {
    if (this.active < this.settings.concurrency) {
      this.active += 1;
      return;
    }
    if (this.waiting.length >= this.settings.queue) {
      throw new GatewayError(503, "the screenshot service is busy; try again shortly", { "Retry-After": "5" });
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.active -= 1;
  }
}
