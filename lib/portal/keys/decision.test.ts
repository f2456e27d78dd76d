import { describe, expect, it } from "vitest";
import { requestKey } from "../../gateway/keys/key-requests.ts";
import { useDatabase } from "../../../test/support/use-database.ts";
import { decideAndTell, keyDecisionMail } from "./decision.ts";
import type { Mail, Mailer } from "../mail.ts";

const REQUEST = { name: "Thesis", intendedUse: "Collecting papers for my thesis", useType: "research" as const };

/** A mailer that keeps what it sends, or fails every send. */
function fakeMailer(configured: boolean, fail = false): Mailer & { sent: Mail[] } {
  const sent: Mail[] = [];
  return {
    configured,
    sent,
    async send(mail) {
      if (fail) throw new Error("SMTP said no");
      sent.push(mail);
      return configured;
    },
  };
}

describe("keyDecisionMail", () => {
  it("says approved with where to collect the key, or declined, with the operator's note", () => {
    const approved = keyDecisionMail("a@x.test", { name: "Thesis", status: "approved", note: null }, "https://gw.test");
    expect(approved).toEqual({
      to: "a@x.test",
      subject: "Your API key “Thesis” is approved",
      text: "Your request was approved. Open https://gw.test/keys to create the key; it is shown once.\n",
    });
    const declined = keyDecisionMail(
      "a@x.test",
      { name: "Thesis", status: "declined", note: "Too vague" },
      "https://gw.test",
    );
    expect(declined.subject).toBe("Your API key request “Thesis” was declined");
    expect(declined.text).toBe("Your request was declined.\n\nNote from the operator: Too vague\n");
  });
});

describe("decideAndTell", () => {
  const t = useDatabase("pglite");
  const pending = async (email: string) => {
    const user = await t.db.prisma.user.create({ data: { email } });
    return requestKey(t.db, user.id, REQUEST, { mode: "manual" });
  };

  it("decides once and mails the requester when this server sends mail", async () => {
    const request = await pending("mailed@example.test");
    const mailer = fakeMailer(true);
    const told = await decideAndTell(
      t.db,
      { mailer, portalUrl: "https://gw.test" },
      request.id,
      { approve: true },
      "ops",
    );
    expect(told).toMatchObject({ mail: "sent", request: { id: request.id, status: "approved", decidedBy: "ops" } });
    expect(mailer.sent).toEqual([
      expect.objectContaining({ to: "mailed@example.test", subject: "Your API key “Thesis” is approved" }),
    ]);
    expect(
      await decideAndTell(t.db, { mailer, portalUrl: "https://gw.test" }, request.id, { approve: false }, "ops"),
    ).toBeNull();
    expect(mailer.sent).toHaveLength(1);
  });

  it("keeps the decision without mail, and when the mail fails says so", async () => {
    const quiet = await pending("quiet@example.test");
    const none = fakeMailer(false);
    const told = await decideAndTell(
      t.db,
      { mailer: none, portalUrl: "" },
      quiet.id,
      { approve: false, note: "No" },
      "cli",
    );
    expect(told).toMatchObject({ mail: "unsent", request: { status: "declined", note: "No" } });
    expect(none.sent).toEqual([]);
    const failing = await pending("failing@example.test");
    const failed = await decideAndTell(
      t.db,
      { mailer: fakeMailer(true, true), portalUrl: "" },
      failing.id,
      { approve: true },
      "cli",
    );
    expect(failed).toMatchObject({ mail: "failed", error: new Error("SMTP said no"), request: { status: "approved" } });
  });
});
