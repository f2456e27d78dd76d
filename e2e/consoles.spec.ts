import fs from "node:fs";
import { expect, test, type Cookie, type Page } from "@playwright/test";
import { startFakeArasaac, type FakeArasaac } from "../test/fakes/arasaac.ts";
import { startFakeOpenAICompatible, type FakeLlm } from "../test/fakes/llm.ts";
import { startFakeResearchLlm, type FakeResearchLlm } from "../test/fakes/research-llm.ts";
import { playableStory } from "../test/fakes/story.ts";
import { backendEnv } from "../test/support/backends.ts";
import { startServerProcess, type ServerProcess } from "../test/support/server-process.ts";
import {
  expectAccessible,
  expectAccessibleInBothSchemes,
  overflowsSideways,
  screenshot,
  signIn,
} from "./console-session.ts";

const LCP_BUDGET_MS = 1_500;

/** The page's Largest Contentful Paint, as the browser reports it. */
async function largestContentfulPaint(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        new PerformanceObserver((list) => {
          const entries = list.getEntries();
          resolve(entries[entries.length - 1]!.startTime);
        }).observe({ type: "largest-contentful-paint", buffered: true });
      }),
  );
}

/**
 * The page paints its largest content within the budget: on the best of up to three loads, since one
 * load on a busy 2-core machine (Vitest beside Playwright) can be starved past it by other processes
 * while a page that is itself too heavy misses it every time.
 */
async function expectPaintWithinBudget(page: Page): Promise<void> {
  let best = await largestContentfulPaint(page);
  for (let reload = 0; reload < 2 && best > LCP_BUDGET_MS; reload++) {
    await page.reload();
    best = Math.min(best, await largestContentfulPaint(page));
  }
  expect(best).toBeLessThanOrEqual(LCP_BUDGET_MS);
}

/** What the page's Content-Security-Policy blocked, as Chromium reports it: a policy that breaks the portal shows here. */
function watchCspViolations(page: Page): string[] {
  const blocked: string[] = [];
  page.on("console", (m) => {
    if (/Content Security Policy/i.test(m.text())) blocked.push(m.text());
  });
  return blocked;
}

test.describe("the consoles in real Chromium", () => {
  let server: ServerProcess;
  let xai: FakeLlm;
  let slow: FakeLlm;
  /** Opens its stream and then says nothing for a minute: a question that gets no answer. */
  let silent: FakeLlm;
  let arasaac: FakeArasaac;
  let cleanup: () => Promise<void>;
  /** The session cookies of the user beforeAll signed in; each test's own context starts with them. */
  let session: Cookie[];
  test.use({ viewport: { width: 1280, height: 900 } });

  test.beforeAll(async ({ browser }) => {
    const b = await backendEnv("pglite");
    cleanup = b.cleanup;
    [xai, slow, silent, arasaac] = await Promise.all([
      // Slow enough per word that the partial reply is seen on a busy machine.
      startFakeOpenAICompatible({ key: "xai-test", reply: "The answer is forty two.", delayMs: 250 }),
      // A long, slow reply: the stop button has time to abandon it.
      startFakeOpenAICompatible({
        key: "mistral-test",
        reply: Array.from({ length: 400 }, (_, i) => `w${i} `).join(""),
        delayMs: 25,
      }),
      startFakeOpenAICompatible({ key: "groq-test", basePath: "/openai/v1", reply: "Too late.", delayMs: 60_000 }),
      startFakeArasaac(),
    ]);
    const providers = {
      XAI_API_KEY: "xai-test",
      UPSTREAM_XAI_URL: xai.url,
      MISTRAL_API_KEY: "mistral-test",
      UPSTREAM_MISTRAL_URL: slow.url,
      GROQ_API_KEY: "groq-test",
      UPSTREAM_GROQ_URL: silent.url,
    };
    const others = Object.fromEntries(
      ["OPENAI", "ANTHROPIC", "PERPLEXITY", "GEMINI", "COHERE"].map((n) => [`${n}_API_KEY`, ""]),
    );
    server = await startServerProcess({
      ...b.env,
      ...others,
      ...providers,
      UPSTREAM_ARASAAC_URL: arasaac.url,
      // The consoles themselves, not approval (portal-journey.spec.ts): every account may use the models.
      KEY_APPROVAL: "auto",
    });
    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page, server, "consoles@example.test");
    session = await context.cookies();
    await context.close();
  });
  test.beforeEach(async ({ context }) => {
    await context.addCookies(session);
  });
  test.afterAll(async () => {
    await server?.stop();
    await Promise.all([xai?.close(), slow?.close(), silent?.close(), arasaac?.close()]);
    await cleanup?.();
  });

  test("/docs renders the operations of /openapi.json, takes the key once and keeps it in memory only, tries a call, and is accessible and fast", async ({
    page,
    context,
  }) => {
    // Four axe runs over some 160 operations: minutes on a busy CI machine, not a hang.
    test.setTimeout(360_000);
    const blocked = watchCspViolations(page);
    const errors: string[] = [];
    const elsewhere: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    page.on(
      "request",
      (r) => !r.url().startsWith(server.url) && !r.url().startsWith("data:") && elsewhere.push(r.url()),
    );
    const res = await page.goto(`${server.url}/docs`);
    expect(res?.status()).toBe(200);
    await expectPaintWithinBudget(page);
    // Every tag of the live description is a section, every operation an entry in it.
    const spec = (await (await page.request.get(`${server.url}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { tags?: string[] }>>;
    };
    const tags = [
      ...new Set(Object.values(spec.paths).flatMap((ops) => Object.values(ops).flatMap((op) => op.tags ?? []))),
    ];
    expect(tags.length).toBeGreaterThan(5);
    const reference = page.getByTestId("api-reference");
    await reference.getByRole("heading", { level: 2, name: "Status", exact: true }).waitFor({ timeout: 60_000 });
    for (const tag of tags)
      await expect(reference.getByRole("heading", { level: 2, name: tag, exact: true })).toHaveCount(1);
    const operations = Object.values(spec.paths).reduce((n, ops) => n + Object.keys(ops).length, 0);
    await expect(reference.getByRole("article")).toHaveCount(operations);

    // One key field on the page, with no placeholder that could pass for a key.
    const keyField = page.getByLabel("Your API key, for Try it");
    await expect(page.locator('input[type="password"]')).toHaveCount(1);
    await expect(keyField).not.toHaveAttribute("placeholder");
    const secret = "sk_test_never_stored_0123456789";
    await keyField.fill(secret);

    // Try it without a key, then with the one pasted: the answer is the server's, shown as text.
    const health = reference.locator('[id="tag/status/GET/health"]');
    await health.getByText("Try GET /health").click();
    await health.getByRole("button", { name: "Send GET /health" }).click();
    await expect(health.getByRole("status")).toContainText("200 OK");
    await expect(health.getByLabel("Answer to GET /health")).toContainText('"status": "ok"');
    const keyInfo = reference.locator('[id="tag/account/GET/v1/key"]');
    await keyInfo.getByText("Try GET /v1/key").click();
    await keyInfo.getByRole("button", { name: "Send GET /v1/key" }).click();
    await expect(keyInfo.getByRole("status")).toContainText("401");
    // Sent with the key (an unknown one), not without: the server says the key is invalid, not missing.
    await expect(keyInfo.getByLabel("Answer to GET /v1/key")).toContainText("invalid API key");
    // Its answers, each with its status and what it means.
    await keyInfo.getByText(/^Answers \(/).click();
    await expect(keyInfo).toContainText("401 Missing, invalid, revoked or expired API key");

    const stored = await page.evaluate(
      () => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }) + document.cookie,
    );
    expect(stored).not.toContain(secret);
    expect((await context.cookies()).map((c) => c.value).join()).not.toContain(secret);
    // The whole page, the reference included, at both widths and in both schemes.
    expect(await overflowsSideways(page)).toBe(false);
    await expectAccessibleInBothSchemes(page, "docs", [], { viewportOnly: true });
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await overflowsSideways(page)).toBe(false);
    await expectAccessibleInBothSchemes(page, "docs-phone", [], { viewportOnly: true });
    expect(errors).toEqual([]);
    expect(blocked).toEqual([]);
    // Nothing is fetched from another host (fonts, telemetry, hosted services).
    expect(elsewhere).toEqual([]);
  });

  test("chat streams the fake model's reply through the gateway, and stop abandons a stream", async ({ page }) => {
    const res = await page.goto(`${server.url}/console/chat`);
    expect(res?.status()).toBe(200);
    await expectPaintWithinBudget(page);
    const provider = page.getByLabel("Provider");
    await provider.waitFor();
    expect(await provider.locator("option").allTextContents()).toEqual(expect.arrayContaining(["xai", "mistral"]));
    await provider.selectOption("xai");

    await page.getByLabel("Message").fill("What is the answer?");
    await page.getByRole("button", { name: "Send" }).click();
    // Tokens arrive one by one: a partial reply is visible before the whole.
    await page.getByTestId("streaming").getByText("The answer", { exact: false }).waitFor();
    // In the conversation (View code holds the conversation too).
    await page
      .getByRole("region", { name: "Conversation" })
      .getByRole("list")
      .getByText("The answer is forty two.")
      .waitFor();
    await expect(page.getByTestId("chat-status").textContent()).resolves.toMatch(/xai · grok-4-fast.* · \d+ tokens/);
    expect(xai.requests.at(-1)?.body).toMatchObject({
      stream: true,
      messages: [{ role: "user", content: "What is the answer?" }],
    });
    await expectAccessible(page);
    await screenshot(page, "chat");

    await provider.selectOption("mistral");
    await page.getByLabel("Message").fill("Count for a long time");
    await page.getByRole("button", { name: "Send" }).click();
    await page.getByTestId("streaming").getByText("w3 ", { exact: false }).waitFor();
    await page.getByRole("button", { name: "Stop" }).click();
    await expect(page.getByTestId("chat-status").textContent()).resolves.toBe("Stopped.");
    await expect.poll(() => slow.abandoned(), { timeout: 5_000 }).toBe(1);
    // What arrived before the stop stays in the conversation.
    await expect(page.getByRole("listitem").last().textContent()).resolves.toMatch(/w0 w1 w2 w3/);
  });

  test("chat settings saved as a preset come back after a reload, and two models answer one prompt side by side", async ({
    page,
  }) => {
    await page.goto(`${server.url}/console/chat`);
    await page.getByLabel("Provider").selectOption("xai");
    await page.getByLabel(/^Model/).selectOption("grok-3-mini");
    await page.getByLabel("System prompt").fill("Answer in one line.");
    await page.getByLabel("Temperature").fill("0.4");
    await page.getByLabel("Save these settings as").fill("Terse xAI");
    await page.getByRole("button", { name: "Save preset" }).click();
    await expect(page.getByText("Saved “Terse xAI”.")).toBeVisible();

    // A reload forgets the settings; the preset puts them back.
    await page.reload();
    await expect(page.getByLabel("System prompt")).toHaveValue("");
    await page.getByLabel("Preset").selectOption("Terse xAI");
    await expect(page.getByLabel(/^Model/)).toHaveValue("grok-3-mini");
    await expect(page.getByLabel("System prompt")).toHaveValue("Answer in one line.");
    await expect(page.getByLabel("Temperature")).toHaveValue("0.4");

    // One prompt to two models: each answer with its tokens, its time and its estimated cost.
    const compare = page.getByRole("region", { name: "Compare two models" });
    await compare.getByLabel("First model").selectOption("xai/grok-4-fast");
    await compare.getByLabel("Second model").selectOption("xai/grok-3-mini");
    await compare.getByLabel("Prompt to compare").fill("What is the answer?");
    const asked = xai.requests.length;
    await compare.getByRole("button", { name: "Compare" }).click();
    const answers = compare.getByRole("article");
    await expect(answers).toHaveCount(2, { timeout: 15_000 });
    await expect(answers.nth(0)).toHaveAccessibleName("Answer 1: xai/grok-4-fast");
    await expect(answers.nth(1)).toHaveAccessibleName("Answer 2: xai/grok-3-mini");
    for (const answer of await answers.all()) {
      await expect(answer).toContainText("The answer is forty two.");
      await expect(answer.getByTestId("comparison-figures")).toHaveText(
        /^\d+ tokens \(\d+ prompt, \d+ completion\) · \d+\.\d s · (\$\d\.\d+|< \$0\.0001) estimated$/,
      );
    }
    const sent = xai.requests.slice(asked).map((r) => r.body as { model: string; temperature: number });
    expect(sent.map((b) => b.model).sort()).toEqual(["grok-3-mini", "grok-4-fast"]);
    expect(sent.every((b) => b.temperature === 0.4)).toBe(true);
    expect(await overflowsSideways(page)).toBe(false);
    await expectAccessibleInBothSchemes(page, "chat-compare");
  });

  // CANNED ANSWERS: these tests answer the consoles' /v1 calls in the browser with page.route, so the
  // consoles' own behaviour (category filter, alternates, PNG size, story reader) is checked against
  // exact, known data; the test after them runs the same consoles against the real APIs.
  test("datavis lists visualizations by category and draws the chosen one as SVG (fake DataVis API)", async ({
    page,
  }) => {
    const blocked = watchCspViolations(page);
    const rows = Array.from({ length: 30 }, (_, i) => ({ city: `City ${i}`, rain: (i * 7) % 23, month: (i % 12) + 1 }));
    const data = { url: "/v1/trove/environmental/rain?limit=50000", format: { type: "json", property: "data" } };
    const visualizations = [
      {
        name: "rain-by-city",
        title: "Rain by city",
        category: "ranking",
        description: "Cities ranked by rain.",
        dataset: "environmental/rain",
        spec: {
          $schema: "https://vega.github.io/schema/vega-lite/v6.json",
          data,
          mark: "bar",
          encoding: { y: { field: "city", type: "nominal", sort: "-x" }, x: { field: "rain", type: "quantitative" } },
        },
      },
      {
        name: "rain-by-month",
        title: "Rain by month",
        category: "trend",
        description: "Mean rain per month.",
        dataset: "environmental/rain",
        spec: {
          data,
          mark: "line",
          encoding: {
            x: { field: "month", type: "ordinal" },
            y: { field: "rain", type: "quantitative", aggregate: "mean" },
          },
        },
      },
    ];
    await page.route("**/v1/datavis/list*", (route) =>
      route.fulfill({ json: { total: 2, category: null, visualizations, by_category: { ranking: 1, trend: 1 } } }),
    );
    await page.route("**/v1/trove/**", (route) => route.fulfill({ json: { data: rows, total: rows.length } }));
    const res = await page.goto(`${server.url}/console/datavis`);
    expect(res?.status()).toBe(200);
    await expectPaintWithinBudget(page);
    await page.getByLabel("Category").selectOption("trend");
    await page.getByRole("heading", { name: "Rain by month" }).waitFor();
    await page.getByLabel("Category").selectOption("");
    await page.getByRole("button", { name: "Rain by city" }).click();
    await page.getByRole("heading", { name: "Rain by city" }).waitFor();
    // City 0 has no rain: its bar has zero width, so wait for the marks to exist rather than be visible.
    await page.locator('[data-testid="vega-chart"] svg .mark-rect path').first().waitFor({ state: "attached" });
    expect(await page.locator('[data-testid="vega-chart"] svg .mark-rect path').count()).toBe(30);
    await page.getByText("View data (30 rows)").click();
    await expect(page.getByRole("cell", { name: "City 29" }).count()).resolves.toBe(1);
    await expectAccessible(page);
    await screenshot(page, "datavis");
    expect(blocked).toEqual([]);
  });

  test("the AAC builder shows a pictogram per word, switches alternates and exports a PNG (fake AAC API)", async ({
    page,
  }) => {
    const svg = (colour: string) =>
      `<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><circle cx="50" cy="50" r="40" fill="${colour}"/></svg>`;
    await page.route("**/aac/mulberry/*.svg", (route) =>
      route.fulfill({
        contentType: "image/svg+xml",
        body: svg(route.request().url().includes("apple_2") ? "green" : "red"),
      }),
    );
    let sent: unknown;
    await page.route("**/v1/aac/sentence", (route) => {
      sent = route.request().postDataJSON();
      const sym = (keyword: string, file: string, score: number) => ({
        keyword,
        icon_url: `/aac/mulberry/${file}.svg`,
        source: "mulberry",
        license: "CC BY-SA 2.0",
        score,
      });
      return route.fulfill({
        json: {
          sentence: "I want an apple",
          words: [
            { word: "i", matched: true, symbols: [sym("I", "i", 1)] },
            { word: "want", matched: true, symbols: [sym("want", "want", 1)] },
            { word: "an", matched: false, symbols: [] },
            { word: "apple", matched: true, symbols: [sym("apple", "apple", 1), sym("apple green", "apple_2", 0.8)] },
          ],
          statistics: { total_words: 4, matched: 3, unmatched: 1, coverage: 75 },
          sources: ["local"],
          language: "en",
        },
      });
    });
    const res = await page.goto(`${server.url}/console/aac`);
    expect(res?.status()).toBe(200);
    await expectPaintWithinBudget(page);
    await page.getByLabel("Sentence").fill("I want an apple");
    await page.getByRole("button", { name: "Build" }).click();
    const strip = page.getByTestId("strip");
    await strip.getByRole("img", { name: "apple" }).waitFor();
    expect(sent).toEqual({ sentence: "I want an apple", sources: "local", language: "en" });
    expect(await strip.getByRole("listitem").allTextContents()).toEqual(
      ["I", "want", "anno symbolan", "apple"].map((t, i) => (i === 2 ? t : t.toLowerCase())),
    );
    await page.getByRole("button", { name: "apple green (mulberry, CC BY-SA 2.0)" }).click();
    expect(await strip.getByRole("img", { name: "apple green" }).getAttribute("src")).toBe("/aac/mulberry/apple_2.svg");

    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Export PNG" }).click(),
    ]);
    expect(download.suggestedFilename()).toBe("aac-sentence.png");
    const png = fs.readFileSync((await download.path())!);
    expect(png.subarray(1, 4).toString()).toBe("PNG");
    // IHDR: four cards in one row of 160 px cells with 16 px gaps.
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([16 + 4 * 176, 16 + 196 + 16]);
    await expectAccessible(page);
    await screenshot(page, "aac");
  });

  // The same two consoles against the gateway's own DataVis, Data Trove and AAC routes and the shipped
  // data: no canned answers, so a drift between the consoles and the APIs shows here.
  test("datavis and AAC consoles work against the real DataVis, Trove and AAC APIs", async ({ page }) => {
    await page.goto(`${server.url}/console/datavis`);
    // Asked from the page, as the console asks: same origin, with the session.
    const first = await page.evaluate(async () => {
      const listed = (await (await fetch("/v1/datavis/list?category=ranking")).json()) as {
        visualizations: { title: string }[];
      };
      return listed.visualizations[0]!;
    });
    await page.getByLabel("Category").selectOption("ranking");
    await page.getByRole("heading", { name: first.title }).waitFor();
    await page
      .locator('[data-testid="vega-chart"] svg .mark-rect path')
      .first()
      .waitFor({ state: "attached", timeout: 30_000 });
    expect(await page.locator('[data-testid="vega-chart"] svg .mark-rect path').count()).toBeGreaterThan(1);
    await page.getByText(/View data \([\d,]+ rows/).click();
    expect(
      await page
        .getByRole("region", { name: `Data of ${first.title}` })
        .getByRole("row")
        .count(),
    ).toBeGreaterThan(1);

    await page.goto(`${server.url}/console/aac`);
    await page.getByLabel("Sentence").fill("the dog wants to eat an apple");
    await page.getByRole("button", { name: "Build" }).click();
    const strip = page.getByTestId("strip");
    await strip.getByRole("img", { name: "apple" }).waitFor();
    // The strip renders before its images arrive (each now passes Next's proxy for its headers): wait for them to load.
    await strip
      .getByRole("img")
      .evaluateAll((els) => Promise.all(els.map((el) => (el as HTMLImageElement).decode().catch(() => {}))));
    // Every pictogram on the strip is a shipped SVG the portal serves, and the browser decoded it.
    const images = await strip
      .getByRole("img")
      .evaluateAll((els) =>
        els.map((el) => ({ src: el.getAttribute("src"), width: (el as HTMLImageElement).naturalWidth })),
      );
    expect(images.length).toBeGreaterThanOrEqual(4);
    for (const image of images) {
      expect(image.src).toMatch(/^\/aac\/(mulberry|openmoji|core)\/.+\.svg$/);
      expect(image.width).toBeGreaterThan(0);
    }
  });

  test("the story console shows a failed generation, then generates a story, graphs it and reads it to an ending (fake story API)", async ({
    page,
  }) => {
    const generated = { ...playableStory(6, 2), complexity: "simple", provider: "xai" };
    const sent: unknown[] = [];
    let fail = true;
    await page.route("**/v1/generate/story", (route) => {
      sent.push(route.request().postDataJSON());
      return fail
        ? route.fulfill({
            status: 502,
            json: {
              error: "xai did not produce a valid story after a repair attempt: a simple story has 5 to 8 nodes",
            },
          })
        : route.fulfill({ json: generated });
    });
    const res = await page.goto(`${server.url}/console/story`);
    expect(res?.status()).toBe(200);
    await expectPaintWithinBudget(page);
    await page.getByLabel("What is it about?").fill("A lighthouse keeper");
    await page.getByLabel("Size").selectOption("simple");
    await page.getByRole("button", { name: "Generate" }).click();
    await expect(page.locator('[data-error-kind="failed"]')).toHaveText(
      "The call failed (HTTP 502): xai did not produce a valid story after a repair attempt: a simple story has 5 to 8 nodes",
    );

    fail = false;
    await page.getByRole("button", { name: "Generate" }).click();
    await page.getByRole("heading", { name: "The lighthouse" }).waitFor();
    expect(sent).toEqual([
      { description: "A lighthouse keeper", complexity: "simple", strict: true },
      { description: "A lighthouse keeper", complexity: "simple", strict: true },
    ]);
    await expect(page.getByText(/6 nodes · 5 connections · 2 endings · simple · written by xai\./)).toBeVisible();
    await expect(page.locator("[data-error-kind]")).toHaveCount(0);
    await expect(page.locator(".react-flow__node")).toHaveCount(6);
    await expect(page.locator(".react-flow__edge")).toHaveCount(5);
    const reader = page.getByTestId("reader");
    await reader.getByRole("button", { name: "Turn back (2)" }).click();
    await reader.getByText("ending 2. The end.").waitFor();
    await reader.getByText("The end.", { exact: true }).waitFor();
    // Clicking a node in the graph moves the reader there.
    await page.locator('.react-flow__node[data-id="room-3"]').click();
    await reader.getByText("You climb to landing 3.").waitFor();
    await expectAccessible(page);
    await screenshot(page, "story");

    // Pasting still works: the example, then a story whose connection names no node.
    await page.getByRole("button", { name: "Fill in an example" }).click();
    await page.getByRole("button", { name: "Show graph" }).click();
    await page.getByRole("heading", { name: "The locked door" }).waitFor();
    await expect(page.locator(".react-flow__node")).toHaveCount(4);
    await reader.getByRole("button", { name: "Try the door" }).click();
    await reader.getByRole("button", { name: "Use the key" }).click();
    await reader.getByText("The end.", { exact: true }).waitFor();
    await page
      .getByLabel(/Story JSON/)
      .fill('{"nodes":[{"id":"start","text":"x","type":"start"}],"connections":[{"from":"start","to":"gone"}]}');
    await page.getByRole("button", { name: "Show graph" }).click();
    await page.getByText('connections.0.to: connection to "gone" is not a node id').waitFor();
  });

  test("consoles show a 429's retry time and a 503's not-configured reason (fake answers)", async ({ page }) => {
    await page.route("**/v1/datavis/list*", (route) =>
      route.fulfill({
        status: 429,
        headers: { "retry-after": "30" },
        json: { error: { code: "rate_limit_exceeded", message: "Minute limit reached", retry_after: 30 } },
      }),
    );
    await page.goto(`${server.url}/console/datavis`);
    const limited = page.locator('[data-error-kind="rate-limited"]');
    await limited.waitFor();
    expect(await limited.textContent()).toMatch(
      /Minute limit reached Try again in (30|29|28) s \(at \d\d:\d\d:\d\d UTC\)/,
    );

    await page.route("**/v1/aac/sentence", (route) =>
      route.fulfill({ status: 503, json: { error: "the pictogram library is not configured" } }),
    );
    await page.goto(`${server.url}/console/aac`);
    await page.getByLabel("Sentence").fill("hello");
    await page.getByRole("button", { name: "Build" }).click();
    await expect(page.locator('[data-error-kind="not-configured"]').textContent()).resolves.toBe(
      "Not configured on this server: the pictogram library is not configured",
    );
  });

  test("a signed-out visitor gets a sign-in link instead of a console", async ({ browser }) => {
    const signedOut = await browser.newContext();
    const anonymous = await signedOut.newPage();
    await anonymous.goto(`${server.url}/console/chat`);
    const link = anonymous.getByRole("main").getByRole("link", { name: "Sign in" });
    expect(await link.getAttribute("href")).toBe("/api/auth/signin?callbackUrl=%2Fconsole%2Fchat");
    // The index the header's "Consoles" link opens: server-rendered, one link per console.
    expect((await anonymous.goto(`${server.url}/console`))?.status()).toBe(200);
    expect(await anonymous.getByRole("main").getByRole("link").allTextContents()).toEqual([
      expect.stringMatching(/^Chat/),
      expect.stringMatching(/^AAC builder/),
      expect.stringMatching(/^Story graph/),
      expect.stringMatching(/^DataVis/),
      expect.stringMatching(/^Research/),
    ]);
    await expectAccessible(anonymous);
    await signedOut.close();
  });
  // At a desktop's and a phone's width, in light and dark.
  for (const [label, viewport] of [
    ["desktop", { width: 1280, height: 900 }],
    ["phone", { width: 390, height: 844 }],
  ] as const) {
    for (const colorScheme of ["light", "dark"] as const) {
      const shot = (name: string) => `${name}-${label}-${colorScheme}`;
      test.describe(`at ${viewport.width} px, ${colorScheme}`, () => {
        test.use({ viewport });
        test.beforeEach(async ({ page }) => {
          await page.emulateMedia({ colorScheme });
        });

        test("chat: a model from the gateway's list, system prompt and temperature sent, view code of the request, stop drops the unanswered turn", async ({
          page,
        }) => {
          await page.goto(`${server.url}/console/chat`);
          await page.getByLabel("Provider").selectOption("xai");
          // The model picker offers exactly the gateway's models for that provider.
          const listed = await page.evaluate(async () => {
            const body = (await (await fetch("/v1/llm/models")).json()) as {
              models: { id: string; provider: string }[];
            };
            return body.models.filter((m) => m.provider === "xai").map((m) => m.id);
          });
          const picker = page.getByLabel(/^Model/);
          expect(
            await picker.locator("option").evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value)),
          ).toEqual(listed);
          const model = listed.at(-1)!;
          await picker.selectOption(model);
          await page.getByLabel("System prompt").fill(`Answer in one line; say "it's" plainly.`);
          await page.getByLabel("Message").fill("What is the answer?");
          const temperature = page.getByLabel("Temperature");
          await temperature.fill("3");
          const problem = page.locator("main").getByRole("alert");
          await expect(problem).toHaveText("Temperature is 0 to 2");
          await expect(page.getByRole("button", { name: "Send" })).toBeDisabled();
          await temperature.fill("0.3");
          await expect(problem).toHaveCount(0);

          // View code: this request, against this server, the key left to the environment: first as a chat
          // completion (curl, then the SDKs), then as the gateway's own /v1/llm/chat.
          await page.getByText("View code").click();
          const code = page.getByTestId("chat-code");
          const forms = page.getByRole("group", { name: "Language" });
          await expect(code).toContainText(`curl ${server.url}/v1/chat/completions`);
          await expect(code).toContainText('-H "Authorization: Bearer $API_KEY"');
          for (const part of [`"model": "xai/${model}"`, '"temperature": 0.3', '"content": "What is the answer?"'])
            await expect(code).toContainText(part);
          // The system prompt's quote is escaped for the shell's single quotes.
          await expect(code).toContainText(`say \\"it'\\''s\\" plainly.`);
          await forms.getByRole("button", { name: "OpenAI SDK · Python" }).click();
          await expect(code).toContainText(`OpenAI(base_url="${server.url}/v1", api_key=os.environ["API_KEY"])`);
          await expect(code).toContainText("temperature=0.3,");
          await forms.getByRole("button", { name: "Anthropic SDK · Python" }).click();
          // Anthropic takes the system prompt apart from the turns.
          await expect(code).toContainText(`system="Answer in one line; say \\"it's\\" plainly.",`);
          await forms.getByRole("button", { name: "Gateway API · curl" }).click();
          await expect(code).toContainText(`curl ${server.url}/v1/llm/chat`);
          await expect(code).toContainText('-H "X-API-Key: $API_KEY"');
          await expect(code).toContainText(`"model": "${model}"`);
          await forms.getByRole("button", { name: "Gateway API · Python" }).click();
          await expect(code).toContainText(`requests.post("${server.url}/v1/llm/chat"`);
          await expect(code).toContainText('os.environ["API_KEY"]');
          await expect(code).toContainText('"temperature": 0.3,');
          await forms.getByRole("button", { name: "Gateway API · JavaScript" }).click();
          await expect(code).toContainText(`await fetch("${server.url}/v1/llm/chat"`);
          await expect(code).toContainText("process.env.API_KEY");

          const conversation = page.getByRole("region", { name: "Conversation" }).getByRole("list").first();
          await page.getByRole("button", { name: "Send" }).click();
          await conversation.getByText("The answer is forty two.").waitFor();
          expect(xai.requests.at(-1)?.body).toMatchObject({
            model,
            temperature: 0.3,
            messages: [
              { role: "system", content: `Answer in one line; say "it's" plainly.` },
              { role: "user", content: "What is the answer?" },
            ],
          });
          expect(await overflowsSideways(page)).toBe(false);
          await expectAccessible(page);
          await screenshot(page, shot("chat-settings"));

          // A question the model never starts answering: Stop takes it back out of the conversation.
          await page.getByLabel("Provider").selectOption("groq");
          await page.getByLabel("Message").fill("Will you ever answer?");
          const asked = silent.requests.length;
          await page.getByRole("button", { name: "Send" }).click();
          await expect.poll(() => silent.requests.length, { timeout: 15_000 }).toBe(asked + 1);
          await expect(conversation.getByText("Will you ever answer?")).toBeVisible();
          await page.getByRole("button", { name: "Stop" }).click();
          await expect(page.getByTestId("chat-status")).toHaveText("Stopped.");
          await expect(conversation.getByText("Will you ever answer?")).toHaveCount(0);
          await expect(page.getByLabel("Message")).toHaveValue("Will you ever answer?");
          // The next request carries the answered turns only: no question left hanging before it.
          await page.getByLabel("Provider").selectOption("xai");
          await page.getByLabel("Message").fill("Once more?");
          await page.getByRole("button", { name: "Send" }).click();
          await expect(page.getByTestId("chat-status")).toContainText("tokens");
          expect(
            (xai.requests.at(-1)?.body.messages as { role: string; content: string }[]).map((m) => m.role),
          ).toEqual(["system", "user", "assistant", "user"]);
          expect(xai.requests.at(-1)?.body.messages).toContainEqual({ role: "user", content: "Once more?" });
          await expectAccessible(page);
          await screenshot(page, shot("chat-stopped"));
        });

        test("AAC: core words get symbols that load, and pictures that fail to load fall back and do not count", async ({
          page,
        }) => {
          // The pictogram library's image host is unreachable: every picture from it fails.
          await page.route("https://static.arasaac.org/**", (route) => route.abort());
          await page.goto(`${server.url}/console/aac`);
          await page.getByLabel("Sentence").fill("I you to the a an yes no please");
          await page.getByRole("button", { name: "Build" }).click();
          const strip = page.getByTestId("strip");
          await expect(strip.getByRole("listitem")).toHaveCount(9);
          const images = strip.getByRole("img");
          await expect(images).toHaveCount(9);
          await images.evaluateAll((els) => Promise.all(els.map((el) => (el as HTMLImageElement).decode())));
          const shown = await images.evaluateAll((els) =>
            els.map((el) => [el.getAttribute("src"), (el as HTMLImageElement).naturalWidth > 0]),
          );
          expect(shown).toEqual(
            [
              "/aac/core/i.svg",
              "/aac/openmoji/1FAF5.svg",
              "/aac/openmoji/27A1.svg",
              "/aac/core/the.svg",
              "/aac/core/a.svg",
              "/aac/core/a.svg",
              "/aac/openmoji/1F44D.svg",
              "/aac/mulberry/mistake_no_wrong.svg",
              "/aac/openmoji/1F64F.svg",
            ].map((src) => [src, true]),
          );
          await expect(page.getByTestId("coverage")).toHaveText("9 of 9 words have a symbol (100%)");

          // Only the pictogram library: the gateway finds pictograms for three words, none of which loads.
          await page.getByLabel("Symbols from").selectOption("pictolib");
          await page.getByLabel("Sentence").fill("I want a dog");
          await page.getByRole("button", { name: "Build" }).click();
          await expect(strip.getByTestId("text-tile")).toHaveCount(4);
          await expect(strip.getByRole("img")).toHaveCount(0);
          await expect(page.getByTestId("coverage")).toHaveText("0 of 4 words have a symbol (0%)");
          await expect(page.getByTestId("broken-images")).toContainText(
            "3 words show another symbol or the word alone",
          );
          expect(arasaac.hits).toEqual(expect.arrayContaining(["/api/pictograms/en/search/dog"]));
          await expectAccessible(page);
          await screenshot(page, shot("aac-broken-pictures"));

          // Both sources: each word falls back to a local symbol that loads.
          await page.getByLabel("Symbols from").selectOption("local,pictolib");
          await page.getByRole("button", { name: "Build" }).click();
          await expect(strip.getByRole("img")).toHaveCount(4);
          await expect(page.getByTestId("coverage")).toHaveText("4 of 4 words have a symbol (100%)");
          expect(await strip.getByRole("img").evaluateAll((els) => els.map((el) => el.getAttribute("src")))).toEqual([
            "/aac/core/i.svg",
            "/aac/mulberry/want_to.svg",
            "/aac/core/a.svg",
            expect.stringMatching(/^\/aac\/(mulberry|openmoji)\//),
          ]);
          expect(await overflowsSideways(page)).toBe(false);
          await expectAccessible(page);
          await screenshot(page, shot("aac-core-words"));
        });

        test("DataVis: search and category filter, the chart as wide as its panel, the data table scrolling inside itself (fake DataVis API)", async ({
          page,
        }) => {
          // Wide rows: a dozen columns with long values, which would push a phone's page sideways.
          const rows = Array.from({ length: 30 }, (_, i) => ({
            city: `City ${i}`,
            rain: (i * 7) % 23,
            month: (i % 12) + 1,
            ...Object.fromEntries(
              Array.from({ length: 10 }, (_, c) => [
                `station_note_${c}`,
                `A long note about station ${c} in city ${i}`,
              ]),
            ),
          }));
          const data = { url: "/v1/trove/environmental/rain?limit=50000", format: { type: "json", property: "data" } };
          const vis = (name: string, title: string, category: string, description: string, spec: object) => ({
            name,
            title,
            category,
            description,
            dataset: "environmental/rain",
            spec: { data, width: 400, height: 240, ...spec },
          });
          const visualizations = [
            vis("rain-by-city", "Rain by city", "ranking", "Cities ranked by rain.", {
              mark: "bar",
              encoding: { x: { field: "city", type: "nominal" }, y: { field: "rain", type: "quantitative" } },
            }),
            vis("rain-by-month", "Rain by month", "trend", "Mean rain per month.", {
              mark: "line",
              encoding: {
                x: { field: "month", type: "ordinal" },
                y: { field: "rain", type: "quantitative", aggregate: "mean" },
              },
            }),
            vis("wettest-months", "Wettest months", "ranking", "Months ranked by mean rain.", {
              mark: "bar",
              encoding: {
                y: { field: "month", type: "ordinal", sort: "-x" },
                x: { field: "rain", type: "quantitative", aggregate: "mean" },
              },
            }),
          ];
          await page.route("**/v1/datavis/list*", (route) =>
            route.fulfill({ json: { total: 3, visualizations, by_category: { ranking: 2, trend: 1 } } }),
          );
          await page.route("**/v1/trove/**", (route) => route.fulfill({ json: { data: rows, total: rows.length } }));
          await page.goto(`${server.url}/console/datavis`);
          const list = page.getByRole("navigation", { name: "Visualizations" }).getByRole("list");
          const titles = () => list.getByRole("button").allTextContents();
          await expect(page.getByText("3 visualizations")).toBeVisible();

          await page.getByLabel("Search").fill("MONTH");
          await expect.poll(titles).toEqual(["Rain by month", "Wettest months"]);
          await expect(page.getByText("2 of 3 visualizations")).toBeVisible();
          await page.getByLabel("Category").selectOption("ranking");
          await expect.poll(titles).toEqual(["Wettest months"]);
          await page.getByRole("heading", { name: "Wettest months" }).waitFor();
          await page.getByLabel("Search").fill("month trend");
          await expect(page.getByText("No visualization matches “month trend” in this category.")).toBeVisible();
          await page.getByLabel("Search").fill("");
          await expect.poll(titles).toEqual(["Rain by city", "Wettest months"]);
          await page.getByRole("button", { name: "Rain by city" }).click();
          await page.getByRole("heading", { name: "Rain by city" }).waitFor();
          const chart = page.getByTestId("vega-chart");
          await chart.locator("svg .mark-rect path").first().waitFor({ state: "attached", timeout: 30_000 });

          // The gallery's 400 px width is replaced by the panel's: the chart fills its box and stays inside it.
          const [box, drawn] = await Promise.all([chart.boundingBox(), chart.locator("svg").first().boundingBox()]);
          expect(drawn!.width).toBeGreaterThan(box!.width - 40);
          expect(drawn!.x + drawn!.width).toBeLessThanOrEqual(box!.x + box!.width + 1);
          if (label === "desktop") expect(drawn!.width).toBeGreaterThan(600);

          await page.getByText("View data (30 rows)").click();
          const table = page.getByRole("region", { name: "Data of Rain by city" });
          await expect(table.getByRole("cell", { name: "City 29", exact: true })).toHaveCount(1);
          // The table is wider than the screen, and scrolls inside its own region, not the page.
          expect(await table.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
          expect(await overflowsSideways(page)).toBe(false);
          await expectAccessible(page);
          await screenshot(page, shot("datavis-search"));
        });
      });
    }
  }
});

test.describe("the story console in real Chromium against the gateway's story API (fake provider)", () => {
  let server: ServerProcess;
  let llm: FakeResearchLlm;
  let cleanup: () => Promise<void>;

  test.beforeAll(async () => {
    const b = await backendEnv("pglite");
    cleanup = b.cleanup;
    // The first answer strands a node; the repair turn's answer is playable.
    llm = await startFakeResearchLlm({
      key: "xai-test",
      script: (req) => {
        const story = playableStory(7, 2, "The keeper's night");
        if (!req.body.messages.some((m) => m.role === "assistant"))
          story.nodes.push({ id: "cellar", type: "story", text: "Unreachable." });
        return { content: JSON.stringify(story) };
      },
    });
    server = await startServerProcess({
      ...b.env,
      XAI_API_KEY: "xai-test",
      UPSTREAM_XAI_URL: llm.url,
      // Every account may use the models: approval is portal-journey.spec.ts's.
      KEY_APPROVAL: "auto",
    });
  });
  test.afterAll(async () => {
    await server?.stop();
    await llm?.close();
    await cleanup?.();
  });

  test("a signed-in user generates a simple story through the gateway and plays it to an ending", async ({ page }) => {
    await signIn(page, server, "story-live@example.test");
    expect((await page.goto(`${server.url}/console/story`))?.status()).toBe(200);
    await page.getByLabel("What is it about?").fill("A lighthouse keeper on a stormy night");
    await page.getByLabel("Size").selectOption("simple");
    await page.getByRole("button", { name: "Generate" }).click();
    await page.getByRole("heading", { name: "The keeper's night" }).waitFor({ timeout: 30_000 });
    // The gateway asked twice: the first answer's unreachable node went back to the model to repair.
    expect(llm.requests).toHaveLength(2);
    expect(JSON.stringify(llm.requests[0]!.body.messages)).toContain("A lighthouse keeper on a stormy night");
    expect(JSON.stringify(llm.requests[1]!.body.messages)).toContain('no path leads to \\"cellar\\"');
    await expect(page.getByText(/7 nodes · .* · 2 endings · simple · written by xai\./)).toBeVisible();
    await expect(page.locator(".react-flow__node")).toHaveCount(7);

    const reader = page.getByTestId("reader");
    for (let step = 0; step < 10 && !(await reader.getByText("The end.", { exact: true }).isVisible()); step++)
      await reader.getByRole("button", { name: "Walk on" }).click();
    await expect(reader.getByText("ending 1. The end.")).toBeVisible();
    await expect(reader.getByText("The end.", { exact: true })).toBeVisible();
    await expectAccessible(page);
  });
});
