import { expect, test } from "@playwright/test";
import { readOperatorEndpoint } from "../lib/gateway/keys/operator.ts";
import { backendEnv } from "../test/support/backends.ts";
import { startTestSmtp, type TestSmtp } from "../test/support/mail.ts";
import { startServerProcess, type ServerProcess } from "../test/support/server-process.ts";
import { expectAccessibleInBothSchemes, overflowsSideways } from "./console-session.ts";
import { signInThroughMail } from "./sign-in.ts";

const OWNER = "lead@alpha.test";

/**
 * A team in the portal, end to end: its owner invites an address, the invitee accepts through the mailed
 * link, makes a key for the team, uses it, and sees the calls on the team's usage. At a desktop and a
 * phone width, accessible in both colour schemes.
 */
test.describe("teams in real Chromium: invite, accept, key, usage", () => {
  let server: ServerProcess;
  let smtp: TestSmtp;
  let cleanup: () => Promise<void>;

  test.beforeAll(async () => {
    const b = await backendEnv("pglite");
    cleanup = b.cleanup;
    smtp = await startTestSmtp();
    server = await startServerProcess({
      ...b.env,
      SMTP_URL: smtp.url,
      EMAIL_FROM: "Gateway <gateway@example.test>",
      METER_FLUSH_MS: "200",
    });
    const endpoint = readOperatorEndpoint(b.env.DATA_DIR!)!;
    const operator = async (command: string, body: object) => {
      const res = await fetch(`${endpoint.url}/teams/${command}`, {
        method: "POST",
        headers: { authorization: `Bearer ${endpoint.token}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      expect(res.status).toBe(200);
      return ((await res.json()) as { lines: { id: string }[] }).lines[0]!;
    };
    const org = await operator("create-org", { name: "Alpha Corp" });
    const team = await operator("create-team", { organisation: org.id, name: "Alpha" });
    await operator("add-member", { team: team.id, email: OWNER, role: "owner" });
  });
  test.afterAll(async () => {
    await server?.stop();
    await smtp?.close();
    await cleanup?.();
  });

  for (const viewport of [
    { width: 1280, height: 900 },
    { width: 390, height: 844 },
  ]) {
    test(`at ${viewport.width} px: the owner invites, the invitee joins, makes a key, and its calls show on the team's usage`, async ({
      browser,
    }) => {
      const invitee = `dev${viewport.width}@alpha.test`;
      const owner = await browser.newContext({ viewport });
      const ownerPage = await owner.newPage();
      await signInThroughMail(ownerPage, server.url, smtp, OWNER, "/teams");
      await expect(ownerPage.getByText("you are the owner")).toBeVisible();
      const since = smtp.mails.length;
      await ownerPage.getByLabel("Address").fill(invitee);
      await ownerPage.getByLabel("Role", { exact: true }).selectOption("member");
      await ownerPage.getByRole("button", { name: "Invite" }).click();
      await expect(ownerPage.getByRole("status").filter({ hasText: "Invitation sent." })).toBeVisible();
      await expect(ownerPage.getByText(`Invited, not yet joined: ${invitee} (member`)).toBeVisible();
      expect(await overflowsSideways(ownerPage)).toBe(false);
      await expectAccessibleInBothSchemes(ownerPage, `teams-owner-${viewport.width}`);

      const mail = await smtp.waitFor(invitee, /invites you to the team Alpha as a member/, { since });
      const link = /https?:\/\/\S+\/teams\/join\/\S+/.exec(mail.text)![0];
      const context = await browser.newContext({ viewport });
      const page = await context.newPage();
      await signInThroughMail(page, server.url, smtp, invitee, "/keys");
      await page.goto(link);
      await expect(page.getByText("You are invited to Alpha as a member.")).toBeVisible();
      await expectAccessibleInBothSchemes(page, `teams-join-${viewport.width}`);
      await page.getByRole("button", { name: "Join Alpha" }).click();
      await page.waitForURL(/\/teams\?team=/);
      await expect(page.getByText("you are the member")).toBeVisible();

      await page.getByLabel("Key name").fill("laptop");
      await page.getByRole("button", { name: "Create key" }).click();
      const shown = page.getByTestId("new-key");
      await shown.waitFor();
      const key = (await shown.textContent())!;
      for (let i = 0; i < 3; i++)
        expect((await fetch(`${server.url}/v1/key`, { headers: { "X-API-Key": key } })).status).toBe(200);
      await page.getByRole("button", { name: "Done: I have stored the key" }).click();
      await expect(shown).toHaveCount(0);

      // The calls reach the team's usage once metering has written them.
      const byMember = page.getByRole("region", { name: "Usage by member" });
      await expect(async () => {
        await page.reload();
        await expect(byMember.getByRole("row").filter({ hasText: invitee })).toContainText("3");
      }).toPass({ timeout: 20_000 });
      await expect(
        page.getByRole("region", { name: "Usage by key" }).getByRole("row", { name: /laptop/ }),
      ).toBeVisible();
      expect(await overflowsSideways(page)).toBe(false);
      await expectAccessibleInBothSchemes(page, `teams-member-${viewport.width}`);
      await context.close();
      await owner.close();
    });
  }
});
