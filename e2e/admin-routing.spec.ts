import fs from "node:fs";
import path from "node:path";
import { expect, test, type Browser, type Cookie } from "@playwright/test";
import { startFakeAnthropic, type FakeLlm } from "../test/fakes/llm.ts";
import { backendEnv, tempDir } from "../test/support/backends.ts";
import { startTestSmtp, type TestSmtp } from "../test/support/mail.ts";
import { runKeysCli, startServerProcess, type ServerProcess } from "../test/support/server-process.ts";
import { expectAccessible, overflowsSideways } from "./console-session.ts";
import { signInThroughMail } from "./sign-in.ts";

/**
 * The operator edits the routing file on /admin/routing: sees what is in force (the file, the
 * deployments with whether each credential is set, the aliases), checks a draft with a mistake (its
 * line and column shown), saves a new alias, and the running server's /v1/models lists it at once.
 */

const OPERATOR = "router@example.test";
const USER = "someone@example.test";
const SECRET = "sk-e2e-never-shown";

async function cookiesOf(browser: Browser, server: ServerProcess, smtp: TestSmtp, email: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInThroughMail(page, server.url, smtp, email);
  const cookies = await context.cookies();
  await context.close();
  return cookies;
}

const fileText = (origin: string, alias: string) =>
  JSON.stringify(
    {
      deployments: [
        {
          name: "claude-e2e",
          provider: "anthropic",
          model: "claude-sonnet-4-5",
          credential: "E2E_ROUTING_KEY",
          origin,
        },
      ],
      aliases: { [alias]: { deployments: ["claude-e2e"] } },
    },
    null,
    2,
  );

test.describe("the operator edits model routing in the admin area", () => {
  test.describe.configure({ mode: "serial" });
  let server: ServerProcess;
  let smtp: TestSmtp;
  let anthropic: FakeLlm;
  let cleanup: () => Promise<void>;
  let dir: string;
  let file: string;
  let key: string;
  const sessions: Record<string, Cookie[]> = {};

  test.beforeAll(async ({ browser }) => {
    const b = await backendEnv("pglite");
    cleanup = b.cleanup;
    smtp = await startTestSmtp();
    anthropic = await startFakeAnthropic({ key: SECRET, reply: "Routed." });
    dir = tempDir("e2e-routing");
    file = path.join(dir, "gateway.config.json");
    fs.writeFileSync(file, fileText(anthropic.url, "smart"));
    server = await startServerProcess({
      ...b.env,
      SMTP_URL: smtp.url,
      EMAIL_FROM: "Gateway <gateway@example.test>",
      ADMIN_EMAILS: OPERATOR,
      GATEWAY_CONFIG: file,
      E2E_ROUTING_KEY: SECRET,
    });
    const made = await runKeysCli(["create", "--name", "Routing key", "--scopes", "llm"], b.env);
    expect(made.code, made.stderr).toBe(0);
    key = (made.lines[0] as { key: string }).key;
    for (const email of [OPERATOR, USER]) sessions[email] = await cookiesOf(browser, server, smtp, email);
  });
  test.afterAll(async () => {
    await server?.stop();
    await anthropic?.close();
    await smtp?.close();
    await cleanup?.();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  const modelIds = async () => {
    const res = await fetch(`${server.url}/v1/models`, { headers: { authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    return ((await res.json()) as { data: { id: string }[] }).data.map((m) => m.id);
  };

  test("shows what is in force, checks a draft with its line and column, saves an alias that /v1/models lists at once", async ({
    context,
    page,
  }) => {
    await context.addCookies(sessions[OPERATOR]!);
    await page.goto(`${server.url}/admin`);
    await page.getByRole("navigation", { name: "Operator views" }).getByRole("link", { name: "Routing" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Model routing");
    await expect(page.getByTestId("routing-file")).toContainText(file);
    const deployments = page.getByRole("region", { name: "Deployments in force" });
    await expect(deployments.getByRole("row", { name: /claude-e2e/ })).toContainText("E2E_ROUTING_KEY set");
    await expect(page.getByRole("region", { name: "Aliases" }).getByRole("row", { name: /smart/ })).toContainText(
      "claude-e2e",
    );
    expect(await page.content()).not.toContain(SECRET);
    await expect(page.getByText(/^Other instances reading the same file/)).toBeVisible();
    expect(await overflowsSideways(page)).toBe(false);
    await expectAccessible(page);

    const editor = page.getByLabel(/^Text of /);
    await expect(editor).toHaveValue(fileText(anthropic.url, "smart"));
    await editor.fill(fileText(anthropic.url, "clever").replace(/"claude-e2e"(\s*\])/, '"nowhere"$1'));
    await page.getByRole("button", { name: "Check" }).click();
    // Next's route announcer is an alert too: the form's own is the one under the editor.
    const form = page.locator("form").filter({ has: editor });
    await expect(form.getByRole("alert")).toHaveText(`Not valid: 1 problem in ${file}.`);
    await expect(page.getByRole("list", { name: "Problems in the file" })).toContainText(
      'aliases.clever.deployments[0]: unknown deployment "nowhere"',
    );
    // The draft stays as typed.
    await expect(editor).toHaveValue(/"nowhere"/);

    await editor.fill(fileText(anthropic.url, "clever"));
    await page.getByRole("button", { name: "Save" }).click();
    await expect(form.getByRole("status")).toContainText(`Saved to ${file} and in force on this instance`);
    expect(fs.readFileSync(file, "utf8")).toBe(fileText(anthropic.url, "clever"));
    const ids = await modelIds();
    expect(ids).toContain("clever");
    expect(ids).not.toContain("smart");
    const chat = await fetch(`${server.url}/v1/chat/completions`, {
      method: "POST",
      // The answer is kept in the response cache, which the operator clears below.
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json", "cache-control": "max-age=60" },
      body: JSON.stringify({ model: "clever", messages: [{ role: "user", content: "hi" }] }),
    });
    expect(chat.status).toBe(200);
    expect(chat.headers.get("x-gateway-provider")).toBe("anthropic");
    expect(chat.headers.get("x-gateway-cache")).toBe("miss");

    await page.reload();
    await expect(page.getByRole("region", { name: "Aliases" }).getByRole("row", { name: /clever/ })).toBeVisible();
    const cache = page.getByRole("region", { name: "Response cache" });
    await cache.getByRole("button", { name: "Clear the response cache" }).click();
    await expect(cache.getByRole("status")).toHaveText("Cleared: 1 answer removed from the response cache.");
    await page.goto(`${server.url}/admin/audit`);
    const audit = page.getByRole("list", { name: "Audit entries" });
    await expect(audit).toContainText("Routing file saved");
    await expect(audit).toContainText("Response cache cleared");
  });

  test("anyone else gets the operators-only page", async ({ context, page }) => {
    await context.addCookies(sessions[USER]!);
    await page.goto(`${server.url}/admin/routing`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Operators only");
    await expect(page.getByLabel(/^Text of /)).toHaveCount(0);
  });
});
