import fs from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type BrowserContext, type Page } from "@playwright/test";
import { backendEnv } from "../test/support/backends.ts";
import { startTestSmtp, type TestSmtp } from "../test/support/mail.ts";
import { startServerProcess, type ServerProcess } from "../test/support/server-process.ts";
import { signInThroughMail } from "./sign-in.ts";

const SCREENSHOTS = path.join("test-results", "screenshots");
const USER = "dev@example.test";
const OPERATOR = "ops@example.test";

/** No serious or critical accessibility violations on the page as it is now. */
async function expectAccessible(page: Page, label: string): Promise<void> {
  const result = await new AxeBuilder({ page }).analyze();
  const bad = result.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(
    bad.map((v) => `${label}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
  ).toEqual([]);
}

/** A full-page screenshot kept in test-results/screenshots and attached to the HTML report. */
async function shoot(page: Page, name: string): Promise<void> {
  const file = path.join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  await test.info().attach(name, { path: file, contentType: "image/png" });
}

// One journey, each step building on the last: serial, so a failed step skips the ones after it. The two
// people's contexts live for the whole journey (made in beforeAll from the browser fixture), not per test.
test.describe("the portal journey in real Chromium: sign in, request, approve, use, watch, rotate, revoke", () => {
  test.describe.configure({ mode: "serial" });
  let server: ServerProcess;
  let smtp: TestSmtp;
  let cleanup: () => Promise<void>;
  let userContext: BrowserContext;
  let operatorContext: BrowserContext;
  let user: Page;
  let operator: Page;
  let firstKey: string;
  let rotatedKey: string;

  test.beforeAll(async ({ browser }) => {
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
    const b = await backendEnv("pglite");
    cleanup = b.cleanup;
    smtp = await startTestSmtp();
    server = await startServerProcess({
      ...b.env,
      SMTP_URL: smtp.url,
      EMAIL_FROM: "Gateway <gateway@example.test>",
      ADMIN_EMAILS: `other@example.test, ${OPERATOR.toUpperCase()}`,
      METER_FLUSH_MS: "200",
    });
    userContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await userContext.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url });
    operatorContext = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: "dark" });
    user = await userContext.newPage();
    operator = await operatorContext.newPage();
    for (const page of [user, operator]) page.on("dialog", (d) => void d.accept());
  });
  test.afterAll(async () => {
    await userContext?.close();
    await operatorContext?.close();
    await server?.stop();
    await smtp?.close();
    await cleanup?.();
  });

  const api = (key: string) => fetch(`${server.url}/v1/key`, { headers: { "X-API-Key": key } });

  test("sends a signed-out visitor to sign in, and signs them in through the mailed link", async () => {
    await user.goto(`${server.url}/keys`);
    await user.waitForURL(/\/sign-in\?callbackUrl=%2Fkeys$/);
    await user.getByText("Your API keys belong to your account").waitFor();
    await expectAccessible(user, "sign-in");
    await shoot(user, "sign-in");
    await signInThroughMail(user, server.url, smtp, USER, "/keys");
    await expect(user.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Your keys");
    await expect(user.getByRole("navigation", { name: "Main" }).textContent()).resolves.toContain(USER);
    // Not an operator: no Admin link, and /admin says so.
    expect(await user.getByRole("link", { name: "Admin" }).count()).toBe(0);
    await expectAccessible(user, "keys (empty)");
    await shoot(user, "keys-empty");
  });

  test("files a key request", async () => {
    await user.goto(`${server.url}/keys/request`);
    await expectAccessible(user, "request form");
    await shoot(user, "key-request");
    await user.getByLabel("Key name").fill("Journey key");
    await user.getByLabel("Intended use").fill("Checking the portal journey end to end.");
    await user.getByLabel("Organisation").fill("Test Lab");
    await user.getByLabel("Research").check();
    await user.getByRole("button", { name: "Send request" }).click();
    await user.getByText("Request sent").waitFor();
    await user.goto(`${server.url}/keys`);
    await user.getByText("waiting for an operator").waitFor();
    // Signed in but not approved (KEY_APPROVAL=manual): the model consoles say so instead of failing.
    await user.goto(`${server.url}/console/chat`);
    await user.getByText("Model consoles open once your key request is approved.").waitFor();
    expect(await user.getByRole("combobox", { name: "Provider" }).count()).toBe(0);
    await expectAccessible(user, "chat console before approval");
  });

  test("lets the operator approve it with a note, and mails the requester", async () => {
    await signInThroughMail(operator, server.url, smtp, OPERATOR, "/admin");
    await operator.getByText("Key requests waiting (1)").waitFor();
    await expectAccessible(operator, "admin (dark)");
    await shoot(operator, "admin-queue-dark");
    await operator.getByLabel("Note about Journey key").fill("Enjoy");
    await operator.getByRole("button", { name: "Approve" }).click();
    // Decided: the request leaves the queue.
    await operator.getByText("Nothing to review.").waitFor();
    const mail = await smtp.waitFor(USER, /approved/);
    expect(mail.text).toContain("Note from the operator: Enjoy");
  });

  test("shows the key once when the requester collects it, copies it, and the key works", async () => {
    await user.goto(`${server.url}/keys`);
    await user.getByRole("button", { name: "Create and show my key" }).click();
    const shown = user.getByTestId("new-key");
    await shown.waitFor();
    firstKey = (await shown.textContent())!;
    expect(firstKey).toMatch(/^sk_[0-9A-Za-z]{43}$/);
    // The list has the key at once, while the key itself is still shown once above it.
    await expect(user.getByTestId(`key-${firstKey.slice(0, 11)}`)).toBeVisible();
    await expect(user.getByText("No keys yet.")).toHaveCount(0);
    await user.getByRole("button", { name: "Copy key" }).click();
    await user.getByText("Copied to the clipboard.").waitFor();
    expect(await user.evaluate(() => navigator.clipboard.readText())).toBe(firstKey);
    // The first call in the caller's tools, the key filled in; its own check of the key a button away.
    const firstCall = user.getByTestId("first-call");
    await expect(firstCall).toContainText(`export API_KEY=${firstKey}`);
    await user.getByRole("group", { name: "First call" }).getByRole("button", { name: "Check the key" }).click();
    await expect(firstCall).toHaveText(`curl -H "X-API-Key: ${firstKey}" ${server.url}/v1/key`);
    await expectAccessible(user, "key shown once");
    await shoot(user, "key-shown-once");

    for (let i = 0; i < 3; i++) expect((await api(firstKey)).status).toBe(200);
    // Shown once: after a reload the page has no key to show, and cannot make another.
    await user.reload();
    expect(await user.getByTestId("new-key").count()).toBe(0);
    expect(await user.getByRole("button", { name: "Create and show my key" }).count()).toBe(0);
    expect(await user.content()).not.toContain(firstKey);
  });

  test("lets a console call /v1 with the session from the page, as the user's console key", async () => {
    const answer = await user.evaluate(async () => {
      const res = await fetch("/v1/key", { credentials: "same-origin" });
      return { status: res.status, body: (await res.json()) as { name: string } };
    });
    expect(answer).toMatchObject({ status: 200, body: { name: "Portal consoles" } });
  });

  test("shows the calls on the usage dashboard once metering has flushed", async () => {
    await user.goto(`${server.url}/usage`);
    const requests = user.getByTestId("total-Requests");
    // The 3 calls and the console call, written in the meter's next batches.
    await expect
      .poll(
        async () => {
          await user.reload();
          await requests.waitFor();
          return Number((await requests.textContent())?.replaceAll(",", ""));
        },
        { timeout: 20_000, intervals: [1000] },
      )
      .toBe(4);
    await user.getByText("Left today (live)").waitFor();
    await expect(user.getByLabel(/Journey key: \d+ requests left today/).getAttribute("value")).resolves.toBe("9997");
    await expectAccessible(user, "usage");
    await shoot(user, "usage");
  });

  test("lets the operator set the key's limits, which the gateway enforces at once", async () => {
    await operator.goto(`${server.url}/admin/keys`);
    const minute = operator.getByLabel(/^Requests a minute limit of Journey key/).first();
    await minute.fill("40");
    await operator
      .getByRole("button", { name: /^Save limits of Journey key/ })
      .first()
      .click();
    await operator.getByText("Limits saved.").waitFor();
    // The minute window is now the nearest to exhaustion, so the headers report its limit.
    await expect
      .poll(async () => (await api(firstKey)).headers.get("x-ratelimit-limit"), { timeout: 5_000 })
      .toBe("40");
  });

  test("rotates with a grace period: both keys work until the old one is revoked", async () => {
    await user.goto(`${server.url}/keys`);
    await user.getByText("Manage “Journey key”").click();
    await user.getByLabel("Old key keeps working for").selectOption("24");
    await user.getByRole("button", { name: "Rotate" }).click();
    const shown = user.getByTestId("new-key");
    await shown.waitFor();
    rotatedKey = (await shown.textContent())!;
    expect(rotatedKey).not.toBe(firstKey);
    expect((await api(rotatedKey)).status).toBe(200);
    expect((await api(firstKey)).status).toBe(200);
    await shoot(user, "key-rotated");
    await user.getByRole("button", { name: "Done: I have stored the key" }).click();
    expect(await user.getByTestId("new-key").count()).toBe(0);

    await user.reload();
    // The old key is shown under its replacement, with when it stops, and can be stopped early.
    const oldKey = user.getByTestId(`key-${firstKey.slice(0, 11)}`);
    await expect(oldKey.textContent()).resolves.toMatch(/old key valid until \d{4}-\d\d-\d\d/);
    await oldKey.getByRole("button", { name: "Stop the old key now" }).click();
    // Revoked: it moves to the folded list of keys that no longer work, which says so when opened.
    await user.getByText("Revoked and expired (1)").click();
    await oldKey.getByText("revoked", { exact: true }).waitFor();
    const refused = await api(firstKey);
    expect(refused.status).toBe(401);
    expect((await refused.json()).error).toMatch(/revoked/);
    expect((await api(rotatedKey)).status).toBe(200);
    await user.reload();
    await expectAccessible(user, "keys after rotate and revoke");
    await shoot(user, "keys-managed");
  });

  test("opens the model consoles to the user once their key is approved", async () => {
    await user.goto(`${server.url}/console/chat`);
    // No provider is configured here: the console itself answers, no longer the approval notice.
    await user.getByText("No language-model provider is configured on this server").waitFor();
    expect(await user.getByTestId("model-access-notice").count()).toBe(0);
  });

  test("records every change in the audit log the operator sees", async () => {
    await operator.goto(`${server.url}/admin/audit`);
    const audit = operator.getByRole("list", { name: "Audit entries" });
    const text = (await audit.textContent()) ?? "";
    for (const action of [
      "key_request.create",
      "key_request.approve",
      "key.create",
      "key.limits",
      "key.rotate",
      "key.revoke",
    ])
      expect(text).toContain(action);
    expect(text).toContain(USER);
    expect(text).toContain(OPERATOR);
    await expectAccessible(operator, "audit log");
    await shoot(operator, "admin-audit-dark");
    await operator.goto(`${server.url}/admin/usage`);
    await operator.getByTestId("endpoint-total").waitFor();
    await expectAccessible(operator, "admin after");
    await shoot(operator, "admin-dark");
    await operatorContext.close();
  });
});
