import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../../test/support/backends.ts";
import { useDatabase } from "../../../test/support/use-database.ts";
import { LOCAL_OPERATOR_EMAIL, loadPortalConfig } from "../config.ts";
import { FIRST_RUN_LINK_HOURS, firstRunLink, hashSignInToken } from "./first-run.ts";

// next-auth keeps its hashing internal (not exported): read from the installed file, so an upgrade that changes it fails here.
const nextAuthUtils = createRequire(import.meta.url)(path.resolve("node_modules/next-auth/core/lib/utils.js")) as {
  hashToken(token: string, options: { provider: { secret?: string }; secret: string }): string;
};

const portal = (env: Record<string, string> = {}) =>
  loadPortalConfig({
    DATA_DIR: tempDir("first-run"),
    NEXTAUTH_SECRET: "first-run-secret-0123456789",
    NEXTAUTH_URL: "http://127.0.0.1:4000",
    ...env,
  });

describe("hashSignInToken", () => {
  it("stores a token as next-auth 4's email provider does", () => {
    expect(hashSignInToken("abc123", "s3cret")).toBe(
      nextAuthUtils.hashToken("abc123", { provider: {}, secret: "s3cret" }),
    );
  });
});

describe("the first-run operator sign-in link", () => {
  const t = useDatabase("pglite");

  it("signs the local operator in on the embedded default: once, for 24 h, replaced by the next start's", async () => {
    const config = portal();
    const now = new Date("2026-01-02T03:04:05Z");
    const link = await firstRunLink(t.db, config, now);
    expect(link).toMatchObject({
      email: LOCAL_OPERATOR_EMAIL,
      expires: new Date(now.getTime() + FIRST_RUN_LINK_HOURS * 3_600_000),
    });
    const url = new URL(link!.url);
    expect(`${url.origin}${url.pathname}`).toBe("http://127.0.0.1:4000/api/auth/callback/email");
    expect(url.searchParams.get("email")).toBe(LOCAL_OPERATOR_EMAIL);
    expect(url.searchParams.get("callbackUrl")).toBe("http://127.0.0.1:4000/admin");
    const token = url.searchParams.get("token")!;
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    // Only its hash is stored, as next-auth stores an emailed link's.
    const stored = await t.db.prisma.verificationToken.findMany({ where: { identifier: LOCAL_OPERATOR_EMAIL } });
    expect(stored).toEqual([
      { identifier: LOCAL_OPERATOR_EMAIL, token: hashSignInToken(token, config.secret), expires: link!.expires },
    ]);

    const next = await firstRunLink(t.db, config, now);
    const rows = await t.db.prisma.verificationToken.findMany({ where: { identifier: LOCAL_OPERATOR_EMAIL } });
    expect(rows.map((r) => r.token)).toEqual([
      hashSignInToken(new URL(next!.url).searchParams.get("token")!, config.secret),
    ]);
  });

  it("is for the first ADMIN_EMAILS address when operators are listed", async () => {
    const link = await firstRunLink(t.db, portal({ ADMIN_EMAILS: "Ops@Example.test, second@example.test" }));
    expect(link?.email).toBe("ops@example.test");
  });

  it("is not made with SMTP, on PostgreSQL, or once an operator has signed in", async () => {
    expect(await firstRunLink(t.db, portal({ SMTP_URL: "smtp://127.0.0.1:2525" }))).toBeNull();
    expect(await firstRunLink({ ...t.db, kind: "postgres" }, portal())).toBeNull();
    const listed = portal({ ADMIN_EMAILS: "boss@example.test,ops2@example.test" });
    // An address with no sign-in (the CLI's `create --email` makes such users) does not count.
    await t.db.prisma.user.create({ data: { email: "ops2@example.test" } });
    expect(await firstRunLink(t.db, listed)).not.toBeNull();
    // A GitHub sign-in (an account, mixed case) counts as much as an email link.
    const user = await t.db.prisma.user.update({
      where: { email: "ops2@example.test" },
      data: { email: "Ops2@Example.test" },
    });
    await t.db.prisma.account.create({
      data: { userId: user.id, type: "oauth", provider: "github", providerAccountId: "42" },
    });
    expect(await firstRunLink(t.db, listed)).toBeNull();
    await t.db.prisma.user.create({ data: { email: LOCAL_OPERATOR_EMAIL, emailVerified: new Date() } });
    expect(await firstRunLink(t.db, portal())).toBeNull();
  });
});
