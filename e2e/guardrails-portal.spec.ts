import fs from "node:fs";
import path from "node:path";
import { expect, test, type Cookie, type Page } from "@playwright/test";
import { tempDir } from "../test/support/backends.ts";
import type { ServerProcess } from "../test/support/server-process.ts";
import { expectAccessible, expectAccessibleInBothSchemes, overflowsSideways } from "./console-session.ts";
import { startXaiPortal, type XaiPortal } from "./xai-portal.ts";

const USER = "guarded@example.test";
const STRANGER = "elsewhere@example.test";
const OPERATOR = "ops@example.test";
const TEAM = "Careful";

test.describe("a key owner's guardrails on their keys page, in real Chromium", () => {
  let portal: XaiPortal;
  let server: ServerProcess;
  let routingDir: string;
  const sessions: Record<string, Cookie[]> = {};
  const requests: { redacted?: string; blocked?: string } = {};

  test.beforeAll(async ({ browser }) => {
    routingDir = tempDir("guardrails-portal-routing");
    const routing = path.join(routingDir, "gateway.config.json");
    fs.writeFileSync(
      routing,
      JSON.stringify({
        deployments: [],
        guardrails: {
          mask: { checks: ["pii"], action: "redact" },
          strict: { checks: ["pii", "words"], action: "block", words: { terms: ["Project Falcon", "Osprey"] } },
        },
      }),
    );
    portal = await startXaiPortal("Done.", { GATEWAY_CONFIG: routing, ADMIN_EMAILS: OPERATOR });
    server = portal.server;
    // A key with its own policy, and a key of a team whose policy its keys take.
    const own = await portal.keyFor(USER, "Own policy", "--guardrails", "mask");
    const [org] = (await portal.cli(["create-org", "--name", "Guarded org"])) as { id: string }[];
    const [team] = (await portal.cli(["create-team", "--org", org!.id, "--name", TEAM])) as { id: string }[];
    await portal.cli(["add-member", team!.id, "--email", USER]);
    await portal.cli(["set-guardrails", team!.id, "strict"]);
    const teams = await portal.keyFor(USER, "Team policy", "--team", team!.id);
    // A key with no policy anywhere over it, which the operator gives one on /admin/keys.
    await portal.keyFor(USER, "Unguarded");
    // A stranger's decision, which the owner must never see.
    const theirs = await portal.keyFor(STRANGER, "Not yours", "--guardrails", "mask");

    const chat = async (key: string, content: string, status: number) => {
      const res = await fetch(`${server.url}/v1/chat/completions`, {
        method: "POST",
        headers: { "X-API-Key": key, "Content-Type": "application/json" },
        body: JSON.stringify({ model: "xai/grok-4-fast", messages: [{ role: "user", content }] }),
      });
      expect(res.status).toBe(status);
      return res.headers.get("x-request-id")!;
    };
    requests.redacted = await chat(own, "Write to ada@example.com please.", 200);
    requests.blocked = await chat(teams, "Card 4111 1111 1111 1111 for Project Falcon.", 400);
    await chat(theirs, "Mail eve@example.com.", 200);
    for (const email of [USER, STRANGER, OPERATOR]) sessions[email] = await portal.sessionOf(browser, email);
  });
  test.afterAll(async () => {
    await portal?.stop();
    if (routingDir) fs.rmSync(routingDir, { recursive: true, force: true });
  });

  const keyCard = (page: Page, name: string) => page.getByTestId(/^key-/).filter({ hasText: name });

  for (const [label, viewport] of [
    ["desktop", { width: 1280, height: 900 }],
    ["phone", { width: 390, height: 844 }],
  ] as const) {
    test.describe(`at ${viewport.width} px`, () => {
      test.use({ viewport });

      test("shows each key's policy, where it comes from and what it does, and the owner's recent decisions", async ({
        page,
        context,
      }) => {
        await context.addCookies(sessions[USER]!);
        await page.goto(`${server.url}/keys`);

        const own = keyCard(page, "Own policy").getByTestId("guardrails");
        await expect(own).toContainText("mask");
        await expect(own).toContainText("this key's own");
        await expect(own).toContainText("Redacts personal data of every kind.");
        const team = keyCard(page, "Team policy").getByTestId("guardrails");
        await expect(team).toContainText(`from team ${TEAM}: strict`);
        await expect(team).toContainText("Blocks personal data of every kind and 2 listed terms.");
        await expect(keyCard(page, "Unguarded").getByTestId("guardrails")).toContainText(
          "none: its prompts go to the model unchecked",
        );
        // Counts only: the listed terms stay the operator's.
        await expect(page.locator("main")).not.toContainText("Osprey");

        const recent = page.getByRole("region", { name: "Recent guardrail decisions" });
        const redacted = recent.getByTestId(`decision-${requests.redacted}`);
        await expect(redacted).toContainText("prompt · pii · redact");
        await expect(redacted).toContainText("redacted 1 email in the prompt (policy mask)");
        await expect(redacted).toContainText("Own policy");
        await expect(redacted).toContainText("/v1/chat/completions");
        const blocked = recent.getByTestId(`decision-${requests.blocked}`);
        await expect(blocked).toContainText("blocked the call for 1 card in the prompt (policy strict)");
        await expect(blocked).toContainText("blocked the call for 1 listed term in the prompt (policy strict)");
        await expect(recent.getByTestId(/^decision-/)).toHaveCount(2);

        expect(await overflowsSideways(page)).toBe(false);
        await expectAccessibleInBothSchemes(page, `guardrails-keys-${label}`);

        await redacted.getByRole("link", { name: `Request ${requests.redacted}` }).click();
        await page.waitForURL((url) => decodeURIComponent(url.pathname) === `/usage/requests/${requests.redacted}`);
        await expect(page.locator("dl")).toContainText("redacted 1 email in the prompt (policy mask)");
      });
    });
  }

  test("lets the operator set and clear a key's policy on /admin/keys, as its owner then sees", async ({ browser }) => {
    const as = async (email: string) => {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
      await context.addCookies(sessions[email]!);
      return { context, page: await context.newPage() };
    };
    const operator = await as(OPERATOR);
    await operator.page.goto(`${server.url}/admin/keys`);
    const card = operator.page.getByTestId(/^admin-key-/).filter({ hasText: "Unguarded" });
    const choice = card.getByLabel(/^Guardrail policy of Unguarded/);
    await expect(choice.locator("option")).toHaveText(["none of its own", "mask", "strict"]);
    await choice.selectOption("mask");
    await card.getByRole("button", { name: /^Save guardrail policy of Unguarded/ }).click();
    await expect(card).toContainText("Guardrail policy mask saved.");
    await expect(card.getByTestId("guardrails")).toContainText("mask (this key's own)");
    expect(await overflowsSideways(operator.page)).toBe(false);
    await expectAccessible(operator.page);

    const owner = await as(USER);
    await owner.page.goto(`${server.url}/keys`);
    await expect(keyCard(owner.page, "Unguarded").getByTestId("guardrails")).toContainText("mask (this key's own)");

    await choice.selectOption("");
    await card.getByRole("button", { name: /^Save guardrail policy of Unguarded/ }).click();
    await expect(card).toContainText("Guardrail policy cleared.");
    await owner.page.reload();
    await expect(keyCard(owner.page, "Unguarded").getByTestId("guardrails")).toContainText("none");
    await Promise.all([operator.context.close(), owner.context.close()]);
  });
});
