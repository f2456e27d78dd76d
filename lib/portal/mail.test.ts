import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSmtp, type TestSmtp } from "../../test/support/mail.ts";
import { loadPortalConfig } from "./config.ts";
import { createMailer, deliverSignInLink } from "./mail.ts";
import { tempDir } from "../../test/support/backends.ts";

const LINK = "http://127.0.0.1:3000/api/auth/callback/email?token=abc&email=a%40example.test";

function capturingLogger() {
  const lines: Array<Record<string, unknown>> = [];
  const logger = pino(
    { level: "info" },
    { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
  );
  return { logger, lines };
}

describe("sign-in link delivery", () => {
  let smtp: TestSmtp;
  beforeAll(async () => {
    smtp = await startTestSmtp();
  });
  afterAll(async () => {
    await smtp?.close();
  });

  it("mails the link through the configured SMTP server", async () => {
    const { logger, lines } = capturingLogger();
    await deliverSignInLink(
      createMailer({ smtp: smtp.url, emailFrom: "gw@example.test" }),
      logger,
      "a@example.test",
      LINK,
    );
    const mail = await smtp.waitFor("a@example.test");
    expect(mail.text).toContain(LINK);
    expect(mail.text).toMatch(/Subject: Sign in to 127\.0\.0\.1:3000/);
    expect(lines).toEqual([]);
  });

  it("writes the link to the log, clearly marked, when no SMTP server is configured", async () => {
    const { logger, lines } = capturingLogger();
    await deliverSignInLink(createMailer({ smtp: null, emailFrom: "gw@example.test" }), logger, "b@example.test", LINK);
    expect(lines).toEqual([
      expect.objectContaining({
        level: 40,
        email: "b@example.test",
        signInLink: LINK,
        msg: expect.stringMatching(/^NO SMTP CONFIGURED/),
      }),
    ]);
  });

  it("keeps an operator's link out of the log when told to (production), saying why", async () => {
    const { logger, lines } = capturingLogger();
    await deliverSignInLink(
      createMailer({ smtp: null, emailFrom: "gw@example.test" }),
      logger,
      "ops@example.test",
      LINK,
      true,
    );
    expect(JSON.stringify(lines)).not.toContain("token=abc");
    expect(lines).toEqual([
      expect.objectContaining({
        email: "ops@example.test",
        msg: expect.stringMatching(/operator address not written to the log/),
      }),
    ]);
  });

  it("tells the reader the link lasts 15 minutes", async () => {
    const { logger } = capturingLogger();
    await deliverSignInLink(
      createMailer({ smtp: smtp.url, emailFrom: "gw@example.test" }),
      logger,
      "c@example.test",
      LINK,
    );
    expect((await smtp.waitFor("c@example.test")).text).toContain("expires in 15 minutes");
  });
});

describe("portal configuration", () => {
  it("reads SMTP, operators and auto-approval, and keeps one generated secret in DATA_DIR", () => {
    const dir = tempDir("portal-config");
    const a = loadPortalConfig({
      DATA_DIR: dir,
      SMTP_HOST: "mail.example.test",
      SMTP_PORT: "465",
      SMTP_USER: "u",
      SMTP_PASSWORD: "p",
      ADMIN_EMAILS: " Ops@Example.test ,b@x.test,",
      AUTO_APPROVE_KEYS: "true",
    });
    expect(a.smtp).toEqual({ host: "mail.example.test", port: 465, secure: true, auth: { user: "u", pass: "p" } });
    expect([...a.adminEmails]).toEqual(["ops@example.test", "b@x.test"]);
    expect(a.keyApproval).toEqual({ mode: "auto" });
    expect(a.url).toBe("http://localhost:3000");
    expect(a.secret.length).toBeGreaterThanOrEqual(32);
    expect(loadPortalConfig({ DATA_DIR: dir }).secret).toBe(a.secret);
    const b = loadPortalConfig({
      DATA_DIR: dir,
      SMTP_URL: "smtp://127.0.0.1:2525",
      NEXTAUTH_SECRET: "s".repeat(32),
      NEXTAUTH_URL: "https://portal.example.test/",
    });
    expect(b).toMatchObject({
      smtp: "smtp://127.0.0.1:2525",
      secret: "s".repeat(32),
      url: "https://portal.example.test",
      github: null,
      keyApproval: { mode: "manual" },
    });
    expect(loadPortalConfig({ DATA_DIR: dir }).smtp).toBeNull();
  });
});
