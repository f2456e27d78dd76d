import { randomBytes, randomUUID } from "node:crypto";
import type { Database } from "../../lib/db/client.ts";

export const SESSION_COOKIE = "next-auth.session-token";

export type TestSession = { userId: string; email: string; token: string; cookie: string };

/**
 * A signed-in portal user without the mail round trip: a User and a Session row as next-auth's Prisma
 * adapter writes them. Put `token` in the SESSION_COOKIE cookie (a Playwright context's addCookies,
 * or a Cookie header) and the portal pages and the /v1 session bridge treat the request as that user.
 */
export async function createTestSession(
  db: Database,
  email = `user-${randomUUID().slice(0, 8)}@example.test`,
  ttlMs = 3_600_000,
): Promise<TestSession> {
  const user = await db.prisma.user.upsert({ where: { email }, create: { email }, update: {} });
  const token = randomBytes(32).toString("hex");
  await db.prisma.session.create({
    data: { sessionToken: token, userId: user.id, expires: new Date(Date.now() + ttlMs) },
  });
  return { userId: user.id, email, token, cookie: `${SESSION_COOKIE}=${token}` };
}
