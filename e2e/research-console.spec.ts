import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type Cookie, type Page } from "@playwright/test";
import { startFakeWikipedia, type FakeSource } from "../test/fakes/data-sources.ts";
import { startFakeResearchLlm, type FakeResearchLlm } from "../test/fakes/research-llm.ts";
import { backendEnv } from "../test/support/backends.ts";
import { startServerProcess, type ServerProcess } from "../test/support/server-process.ts";
import { expectAccessible, overflowsSideways, screenshot, signIn } from "./console-session.ts";

/**
 * A stand-in for GET /v1/orchestrate/{id}/stream that the test writes to one event at a time, so the
 * console is seen between events, as it is while a real task runs. The page's same-origin request is
 * rewritten to it (route.continue with a url is invisible to the page), which keeps it streaming:
 * page.route's fulfill can only answer with a whole body at once.
 */
async function startFakeStream() {
  const open = new Map<string, http.ServerResponse>();
  const closed = new Set<string>();
  const server = http.createServer((req, res) => {
    const id = req.url!.slice(1);
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    res.flushHeaders();
    open.set(id, res);
    req.on("close", () => closed.add(id));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async connected(id: string): Promise<void> {
      await expect.poll(() => open.has(id), { timeout: 30_000 }).toBe(true);
    },
    /** One message as the contract writes it: the task's id and status, then the event. */
    send(id: string, event: object, status = "running"): void {
      open.get(id)!.write(`data: ${JSON.stringify({ task_id: id, status, ...event })}\n\n`);
    },
    closed: (id: string) => closed.has(id),
    close: () => {
      for (const res of open.values()) res.end();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const FIRST = "research_0123456789ab";
const SECOND = "research_fedcba987654";
const SUBTASKS = ["Tidal forces of the moon and sun", "How ocean basins shape tides", "Reading tide tables"];

const info = (id: string, role: string, title: string, parent?: string) => ({
  id,
  role,
  tier: role === "worker" ? "cheap" : "premium",
  model: role === "worker" ? "mistral-small" : "mistral-large",
  title,
  ...(parent ? { parent } : {}),
});
const worker = (n: number) => info(`worker-${n}`, "worker", SUBTASKS[n - 1]!, "synth-1");

const RESULT = {
  kind: "dream-cascade",
  title: "Tides",
  task: "Why are there two tides a day?",
  provider: "mistral",
  budget_tier: "cheap",
  models: { worker: "mistral-small", synthesizer: "mistral-small", summary: "mistral-medium" },
  subtasks: SUBTASKS,
  agents: [1, 2, 3].map((n) => ({
    id: `worker-${n}`,
    role: "worker",
    subtask: SUBTASKS[n - 1],
    tier: "cheap",
    model: "mistral-small",
    status: n === 3 ? "failed" : "completed",
    ...(n === 3 ? { error: "upstream timed out" } : { output: `Findings of worker ${n}: the moon pulls the oceans.` }),
    tool_calls: n === 1 ? [{ tool: "wikipedia_search", args: { query: "tide" }, ok: true }] : [],
    sources: n === 1 ? [{ title: "Tide", url: "https://en.wikipedia.org/wiki/Tide", source: "wikipedia" }] : [],
    duration_ms: 1200,
    usage: { prompt_tokens: 100, completion_tokens: 50, total_tokens: 150 },
  })),
  syntheses: [
    {
      id: "synth-1",
      agents: ["worker-1", "worker-2"],
      tier: "cheap",
      model: "mistral-small",
      output: "### synth-1\n\nBoth findings agree: **gravity** and rotation.",
      duration_ms: 800,
      usage: { prompt_tokens: 200, completion_tokens: 80, total_tokens: 280 },
    },
  ],
  // Markdown as models write it, and an unbroken string longer than any screen is wide.
  executive_summary: `## Why\n\nTwo tides a day come from the **moon's pull** and the Earth's rotation.\n\nRef: ${"tidal".repeat(80)}`,
  sources: [
    { title: "Tide", url: "https://en.wikipedia.org/wiki/Tide", source: "wikipedia" },
    { title: "Sneaky", url: "javascript:alert(1)", source: "news" },
  ],
  failures: [{ agent: "worker-3", error: "upstream timed out" }],
  usage: {
    by_tier: {
      cheap: { calls: 4, prompt_tokens: 500, completion_tokens: 230 },
      balanced: { calls: 1, prompt_tokens: 300, completion_tokens: 120 },
    },
    prompt_tokens: 800,
    completion_tokens: 350,
    total_tokens: 1150,
    estimated_cost_usd: 0.0123,
  },
  timings: {
    started_at: "2025-06-01T10:00:00.000Z",
    completed_at: "2025-06-01T10:00:04.500Z",
    duration_ms: 4500,
    breakdown_ms: 400,
    workers_ms: 1300,
    synthesis_ms: 800,
    summary_ms: 2000,
  },
};

const node = (page: Page, id: string) => page.locator(`.react-flow__node[data-id="${id}"]`);

test.describe("the research console in real Chromium (fake orchestrate API)", () => {
  let server: ServerProcess;
  let stream: Awaited<ReturnType<typeof startFakeStream>>;
  let cleanup: () => Promise<void>;
  let session: Cookie[];
  test.use({ viewport: { width: 1280, height: 900 } });

  test.beforeAll(async ({ browser }) => {
    const b = await backendEnv("pglite");
    cleanup = b.cleanup;
    stream = await startFakeStream();
    // Every account may use the models: approval is portal-journey.spec.ts's.
    server = await startServerProcess({ ...b.env, KEY_APPROVAL: "auto" });
    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page, server, "research@example.test");
    session = await context.cookies();
    await context.close();
  });
  test.beforeEach(async ({ context, page }) => {
    await context.addCookies(session);
    await page.route("**/v1/llm/models", (route) =>
      route.fulfill({
        json: {
          models: [
            { id: "grok-4-fast", provider: "xai", tiers: ["cheap"], default: true },
            { id: "mistral-small", provider: "mistral", tiers: ["cheap"], default: true },
          ],
        },
      }),
    );
    await page.route("**/v1/orchestrate/*/stream", (route) => {
      const id = new URL(route.request().url()).pathname.split("/")[3]!;
      return route.continue({ url: `${stream.url}/${id}` });
    });
  });
  test.afterAll(async () => {
    await server?.stop();
    await stream?.close();
    await cleanup?.();
  });

  test("a cascade's agents appear and finish live as a tree, then the result renders; a second run is cancelled", async ({
    page,
  }) => {
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    const started: { url: string; body: unknown }[] = [];
    await page.route("**/v1/orchestrate/dream-cascade*", (route) => {
      started.push({ url: route.request().url(), body: route.request().postDataJSON() });
      const task_id = started.length === 1 ? FIRST : SECOND;
      return route.fulfill({ status: 202, json: { task_id, status: "pending" } });
    });
    const deleted: string[] = [];
    await page.route(`**/v1/orchestrate/${SECOND}`, (route) => {
      deleted.push(`${route.request().method()} ${new URL(route.request().url()).pathname}`);
      return route.fulfill({ json: { task_id: SECOND, status: "cancelled", message: "Cancelled" } });
    });

    expect((await page.goto(`${server.url}/console/research`))?.status()).toBe(200);
    await expect(page.getByRole("link", { name: "Research", exact: true })).toHaveAttribute("aria-current", "page");
    await page.getByLabel("Task", { exact: true }).fill("Why are there two tides a day?");
    await page.getByLabel("Title (optional)").fill("Tides");
    await page.getByRole("spinbutton", { name: /Agents/ }).fill("3");
    await page.getByLabel("Budget tier").selectOption("cheap");
    await page.getByLabel("Provider").selectOption("mistral");
    await page.getByRole("button", { name: "Start" }).click();

    await stream.connected(FIRST);
    expect(new URL(started[0]!.url).search).toBe("?async=true");
    expect(started[0]!.body).toEqual({
      task: "Why are there two tides a day?",
      title: "Tides",
      num_agents: 3,
      budget_tier: "cheap",
      provider_name: "mistral",
    });
    const status = page.getByTestId("research-status");
    await expect(status).toHaveAttribute("aria-live", "polite");
    await expect(page.getByText(`Task ${FIRST}`)).toBeVisible();

    stream.send(FIRST, { type: "status", progress: 0 }, "pending");
    await expect(status).toHaveText("Queued.");
    stream.send(FIRST, { type: "agent_start", agent: info("breakdown", "breakdown", "Break the task down") });
    stream.send(FIRST, {
      type: "agent_complete",
      agent: { ...info("breakdown", "breakdown", "Break the task down"), duration_ms: 400, tool_calls: 0 },
    });
    stream.send(FIRST, { type: "subtasks_ready", subtasks: SUBTASKS });
    for (const n of [1, 2, 3]) stream.send(FIRST, { type: "agent_start", agent: worker(n) });

    // Live: the workers run under a synthesizer that has not started yet.
    await expect(page.getByTestId("research-subtasks").getByRole("listitem")).toHaveText(SUBTASKS);
    for (const n of [1, 2, 3]) await expect(node(page, `worker-${n}`)).toContainText("Running");
    await expect(node(page, "synth-1")).toContainText("Waiting");
    await expect(node(page, "breakdown")).toContainText("Done");
    await expect(status).toHaveText("Running. 1 of 5 agents done.");
    await expect(page.locator(".react-flow__edge")).toHaveCount(6);

    stream.send(FIRST, { type: "agent_complete", agent: { ...worker(1), duration_ms: 1200, tool_calls: 1 } });
    stream.send(FIRST, { type: "agent_complete", agent: { ...worker(2), duration_ms: 1100, tool_calls: 0 } });
    stream.send(FIRST, { type: "agent_failed", agent: worker(3), error: "upstream timed out" });
    await expect(node(page, "worker-1")).toContainText("Done · 1.2 s");
    await expect(node(page, "worker-3")).toContainText("Failed");
    await expect(node(page, "worker-3")).toHaveAttribute("aria-label", /Failed: upstream timed out/);
    await expect(status).toHaveText("Running. 3 of 5 agents done, 1 failed.");

    const synth = info("synth-1", "synthesizer", "Synthesis of worker-1, worker-2", "summary");
    stream.send(FIRST, { type: "agent_start", agent: synth });
    await expect(node(page, "synth-1")).toContainText("Running");
    await expect(node(page, "summary")).toContainText("Waiting");
    stream.send(FIRST, { type: "synthesis_complete", agent: { ...synth, duration_ms: 800, tool_calls: 0 } });
    const summary = info("summary", "summary", "Executive summary");
    stream.send(FIRST, { type: "agent_start", agent: summary });
    stream.send(FIRST, { type: "summary_complete", agent: { ...summary, duration_ms: 2000, tool_calls: 0 } });
    stream.send(FIRST, { type: "complete", result: RESULT }, "completed");

    await expect(status).toHaveText("Completed. 5 of 6 agents done, 1 failed.");
    for (const id of ["breakdown", "worker-1", "worker-2", "synth-1", "summary"])
      await expect(node(page, id)).toContainText("Done");
    await expect(page.getByRole("button", { name: "Cancel" })).toHaveCount(0);
    const summaryText = page.getByTestId("research-summary");
    await expect(summaryText).toContainText("Two tides a day come from the moon's pull and the Earth's rotation.");
    await expect(summaryText.locator("strong")).toHaveText("moon's pull");
    await expect(summaryText).not.toContainText("##");
    // The long word wraps inside the card: the page never scrolls sideways.
    expect(await overflowsSideways(page)).toBe(false);
    await expect(page.getByRole("region", { name: "Timings" })).toContainText("Started2025-06-01 10:00:00 UTC");
    const sources = page.getByRole("list", { name: "Sources", exact: true });
    const link = sources.getByRole("link", { name: "Tide" });
    await expect(link).toHaveAttribute("href", "https://en.wikipedia.org/wiki/Tide");
    await expect(link).toHaveAttribute("target", "_blank");
    await expect(link).toHaveAttribute("rel", "noopener noreferrer nofollow");
    // A javascript: URL from a third party stays text.
    await expect(sources.getByText("Sneaky")).toBeVisible();
    await expect(sources.getByRole("link")).toHaveCount(1);
    await expect(page.getByTestId("research-usage")).toHaveText(
      "1,150 tokens (800 prompt, 350 completion) · estimated cost $0.0123",
    );
    await expect(page.getByRole("row", { name: /cheap 4 500 230/ })).toBeVisible();
    await expect(page.getByRole("region", { name: "Timings" })).toContainText("Total4.5 s");
    await expect(page.getByRole("region", { name: "Failures" })).toContainText("worker-3: upstream timed out");

    // Outputs are folded until asked for.
    const output = page.getByText("Findings of worker 1: the moon pulls the oceans.");
    await expect(output).toBeHidden();
    await page.getByText("worker-1 · completed").click();
    await expect(output).toBeVisible();
    await expect(page.getByRole("list", { name: "Sources of worker-1" }).getByRole("link")).toHaveAttribute(
      "rel",
      "noopener noreferrer nofollow",
    );
    await page.getByText("synth-1 · merges worker-1, worker-2").click();
    await expect(page.getByText("Both findings agree: gravity and rotation.")).toBeVisible();
    await expect(page.getByText("### synth-1")).toHaveCount(0);
    await expectAccessible(page);
    await screenshot(page, "research");
    // On a phone too, the result fits the screen's width.
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await overflowsSideways(page)).toBe(false);
    await expectAccessible(page);
    await screenshot(page, "research-phone");
    await page.setViewportSize({ width: 1280, height: 900 });

    // A second run, cancelled while its first worker runs.
    await page.getByRole("button", { name: "Start" }).click();
    await stream.connected(SECOND);
    stream.send(SECOND, { type: "agent_start", agent: worker(1) });
    await expect(node(page, "worker-1")).toContainText("Running");
    await expect(page.getByTestId("research-summary")).toHaveCount(0);
    await page.getByRole("button", { name: "Cancel" }).click();
    await expect(status).toHaveText("Cancelled");
    expect(deleted).toEqual([`DELETE /v1/orchestrate/${SECOND}`]);
    // The console stops reading the stream once the task is cancelled.
    await expect.poll(() => stream.closed(SECOND)).toBe(true);
    await expect(page.getByRole("button", { name: "Start" })).toBeEnabled();
    await expectAccessible(page);
    expect(errors).toEqual([]);
  });

  test("a swarm start shows a 429's retry time and a 503's not-configured reason", async ({ page }) => {
    let sent: unknown;
    let answers = 0;
    await page.route("**/v1/orchestrate/dream-swarm*", (route) => {
      sent = route.request().postDataJSON();
      return ++answers === 1
        ? route.fulfill({
            status: 429,
            headers: { "retry-after": "30" },
            json: {
              error: { code: "rate_limit_exceeded", message: "3 research tasks already running", retry_after: 30 },
            },
          })
        : route.fulfill({ status: 503, json: { error: "no language-model provider is configured" } });
    });
    await page.goto(`${server.url}/console/research`);
    await page.getByLabel(/Dream swarm/).check();
    await expect(page.getByRole("spinbutton", { name: /Agents/ })).toHaveValue("5");
    await page.getByLabel("Query").fill("recent tide research");
    await page.getByRole("button", { name: "Start" }).click();
    const limited = page.locator('[data-error-kind="rate-limited"]');
    await expect(limited).toHaveText(
      /3 research tasks already running Try again in (30|29|28) s \(at \d\d:\d\d:\d\d UTC\)/,
    );
    expect(sent).toEqual({
      query: "recent tide research",
      num_agents: 5,
      budget_tier: "balanced",
      provider_name: "xai",
    });
    await expect(page.getByTestId("research-status")).toHaveText("Failed.");

    await page.getByRole("button", { name: "Start" }).click();
    await expect(page.locator('[data-error-kind="not-configured"]')).toHaveText(
      "Not configured on this server: no language-model provider is configured",
    );
    await expectAccessible(page);
  });

  test("a signed-out visitor gets a sign-in link instead of the research console", async ({ browser }) => {
    const signedOut = await browser.newContext();
    const anonymous = await signedOut.newPage();
    await anonymous.goto(`${server.url}/console/research`);
    const link = anonymous.getByRole("main").getByRole("link", { name: "Sign in" });
    await expect(link).toHaveAttribute("href", "/api/auth/signin?callbackUrl=%2Fconsole%2Fresearch");
    await expect(anonymous.getByRole("button", { name: "Start" })).toHaveCount(0);
    await signedOut.close();
  });
});

test.describe("the research console in real Chromium against the gateway's orchestrate API (fake provider and sources)", () => {
  let server: ServerProcess;
  let llm: FakeResearchLlm;
  let wiki: FakeSource;
  let cleanup: () => Promise<void>;

  test.beforeAll(async () => {
    const b = await backendEnv("pglite");
    cleanup = b.cleanup;
    [llm, wiki] = await Promise.all([
      startFakeResearchLlm({
        key: "xai-test",
        // Workers take a moment, so the tree is seen with agents running before they finish.
        script: (req) =>
          req.role === "worker" && req.toolResults.length
            ? { content: "Tides follow the moon.", delayMs: 3000 }
            : undefined,
      }),
      startFakeWikipedia(),
    ]);
    server = await startServerProcess({
      ...b.env,
      XAI_API_KEY: "xai-test",
      UPSTREAM_XAI_URL: llm.url,
      UPSTREAM_WIKIPEDIA_URL: wiki.url,
      KEY_APPROVAL: "auto",
    });
  });
  test.afterAll(async () => {
    await server?.stop();
    await Promise.allSettled([llm?.close(), wiki?.close()]);
    await cleanup?.();
  });

  test("a signed-in user runs a 3-agent cascade: the tree fills in live, the summary and its source render", async ({
    page,
  }) => {
    await signIn(page, server, "research-live@example.test");
    expect((await page.goto(`${server.url}/console/research`))?.status()).toBe(200);
    await page.getByLabel("Task", { exact: true }).fill("Why are there two tides a day?");
    await page.getByRole("spinbutton", { name: /Agents/ }).fill("3");
    await page.getByRole("button", { name: "Start" }).click();

    await expect(page.getByText(/^Task research_[0-9a-f]{12}$/)).toBeVisible();
    await expect(node(page, "worker-1").locator("[data-state]")).toHaveAttribute("data-state", "running");
    const status = page.getByTestId("research-status");
    await expect(status).toHaveText(/^Completed\./, { timeout: 30_000 });
    for (const id of ["worker-1", "worker-2", "worker-3", "synth-1", "summary"])
      await expect(node(page, id).locator("[data-state]")).toHaveAttribute("data-state", "done");
    await expect(page.getByTestId("research-summary")).toHaveText("The summary's answer.");
    await expect(page.getByRole("link", { name: "Ada Lovelace" }).first()).toHaveAttribute("target", "_blank");
    // Every model call went through the gateway to the fake provider, on the tiers' models.
    expect(new Set(llm.requests.filter((r) => r.role === "worker").map((r) => r.model))).toEqual(
      new Set(["grok-3-mini"]),
    );
    await expectAccessible(page);
  });
});
