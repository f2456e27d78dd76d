import { expect, test } from "@playwright/test";
import { backendEnv } from "../test/support/backends.ts";
import { startServerProcess, type ServerProcess } from "../test/support/server-process.ts";
import { expectAccessibleInBothSchemes, overflowsSideways } from "./console-session.ts";

/** /docs lists the guides (docs/*.md) above the API reference; /docs/guides/<slug> renders one. */
test.describe("the guides in real Chromium", () => {
  let server: ServerProcess;
  let cleanup: () => Promise<void>;
  test.beforeAll(async () => {
    const b = await backendEnv("pglite");
    cleanup = b.cleanup;
    server = await startServerProcess(b.env);
  });
  test.afterAll(async () => {
    await server?.stop();
    await cleanup?.();
  });

  for (const [label, viewport] of [
    ["desktop", { width: 1280, height: 800 }],
    ["phone", { width: 390, height: 844 }],
  ] as const) {
    test.describe(`at ${viewport.width} px`, () => {
      test.use({ viewport });

      test("lists the guides by topic, renders one with its headings and code, and follows its links to others", async ({
        page,
      }) => {
        // axe over /docs and three guides, in both schemes, on a busy 2-core machine.
        test.setTimeout(300_000);
        const errors: string[] = [];
        page.on("pageerror", (e) => errors.push(e.message));

        const res = await page.goto(`${server.url}/docs`);
        expect(res?.status()).toBe(200);
        await expect(page.getByRole("heading", { level: 1 })).toHaveText("Docs");
        const guides = page.getByTestId("guides");
        for (const topic of ["Start here", "Calling the API", "Running it", "How it is built"])
          await expect(guides.getByRole("heading", { level: 3, name: topic })).toBeVisible();
        // Each guide by its first heading and the first sentence of its first paragraph.
        const start = guides.getByRole("region", { name: "Start here" });
        await expect(start.getByRole("link", { name: "Getting started", exact: true })).toHaveAttribute(
          "href",
          "/docs/guides/getting-started",
        );
        await expect(start).toContainText("From a fresh checkout to a keyed call, and how the tests run.");
        await expect(guides.getByRole("link", { name: "Architecture decision records" })).toHaveAttribute(
          "href",
          "/docs/guides/adr",
        );
        // The API reference is still this page's, below the guides (the home page's cards link to its tags).
        await expect(page.getByRole("heading", { level: 2, name: "API reference" })).toBeAttached();
        await page.getByTestId("api-reference").getByRole("heading", { level: 2, name: "Status" }).waitFor();
        expect(await overflowsSideways(page)).toBe(false);
        // The reference below has its own checks (consoles.spec.ts); here, the guides' part of the page.
        await expectAccessibleInBothSchemes(page, `docs-index-${label}`, ['[data-testid="api-reference"]'], {
          viewportOnly: true,
        });

        await start.getByRole("link", { name: "Getting started", exact: true }).click();
        await page.waitForURL(/\/docs\/guides\/getting-started$/);
        await expect(page).toHaveTitle("Getting started · Docs");
        await expect(page.getByRole("heading", { level: 1 })).toHaveText("Getting started");
        const article = page.getByRole("article", { name: "Getting started" });
        // Headings keep the file's outline, with the ids GitHub would give them.
        await expect(article.getByRole("heading", { level: 2, name: "First call" })).toHaveAttribute(
          "id",
          "first-call",
        );
        await expect(
          article.getByRole("heading", { level: 3, name: "From TypeScript with the typed client" }),
        ).toHaveAttribute("id", "from-typescript-with-the-typed-client");
        // Code blocks as the portal shows code: light on dark, scrolling inside their own box.
        const code = article
          .getByRole("figure", { name: "bash" })
          .filter({ hasText: "curl -H" })
          .first()
          .locator("pre");
        await expect(code).toContainText("curl -H");
        const style = await code.evaluate((el) => {
          const s = getComputedStyle(el);
          return { background: s.backgroundColor, overflowX: s.overflowX, font: s.fontFamily };
        });
        expect(style.background).not.toBe("rgba(0, 0, 0, 0)");
        expect(style.overflowX).toBe("auto");
        expect(style.font).toMatch(/mono/i);
        await expect(article.getByRole("figure", { name: "ts" })).toContainText("createGatewayClient");
        // "On this page" lists the sections: beside the text on a wide screen, folded above it on a phone.
        if (label === "phone") await page.locator("summary").filter({ hasText: "On this page" }).click();
        const outline = page.getByRole("navigation", { name: "On this page" });
        await expect(outline.getByRole("link", { name: "First call", exact: true })).toHaveAttribute(
          "href",
          "#first-call",
        );
        expect(await overflowsSideways(page)).toBe(false);
        await expectAccessibleInBothSchemes(page, `docs-guide-${label}`);

        // A link to another guide's section: the file's link, now the page's.
        const toPortal = article.locator('a[href^="/docs/guides/portal#"]').first();
        await expect(toPortal).toHaveAttribute("href", /^\/docs\/guides\/portal#[a-z-]+$/);
        const fragment = (await toPortal.getAttribute("href"))!.split("#")[1]!;
        await toPortal.click();
        await page.waitForURL((url) => url.pathname === "/docs/guides/portal" && url.hash === `#${fragment}`);
        await expect(page.getByRole("heading", { level: 1 })).toHaveText("Developer portal, keys, limits and budgets");
        await expect(page.locator(`[id="${fragment}"]`)).toBeInViewport();

        // And from there on to another: the decision records' list, then one record.
        await page.goto(`${server.url}/docs/guides/adr`);
        await expect(page.getByRole("heading", { level: 1 })).toHaveText("Architecture decision records");
        await page
          .getByRole("link", { name: "One request pipeline; Hono kept for contracts, not for serving" })
          .click();
        await page.waitForURL(/\/docs\/guides\/adr-0001-one-request-pipeline$/);
        await expect(page.getByRole("heading", { level: 2, name: "Decision" })).toBeVisible();
        expect(await overflowsSideways(page)).toBe(false);
        await expectAccessibleInBothSchemes(page, `docs-adr-${label}`);
        expect(errors).toEqual([]);
      });
    });
  }

  test("answers 404 for a guide the catalogue does not have, whatever the address holds", async ({ request }) => {
    for (const slug of ["no-such-guide", "..%2Fpackage.json", "%2e%2e%2fREADME", "docs%2Fapi.md"]) {
      const res = await request.get(`${server.url}/docs/guides/${slug}`);
      expect(res.status(), slug).toBe(404);
      expect(await res.text(), slug).not.toContain('"name": "unified-gateway"');
    }
  });
});
