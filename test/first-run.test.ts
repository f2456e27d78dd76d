import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../lib/config.ts";
import { openDatabase } from "../lib/db/client.ts";
import { pickUpKey, requestKey } from "../lib/gateway/keys/key-requests.ts";
import { LOCAL_OPERATOR_EMAIL } from "../lib/portal/config.ts";
import { backendEnv } from "./support/backends.ts";
import { runKeysCli, startServerProcess, type ServerProcess } from "./support/server-process.ts";
import { createTestSession, SESSION_COOKIE } from "./support/session.ts";

const HTML = "text/html,application/xhtml+xml";
const REQUEST = { name: "Thesis", intendedUse: "Collecting papers for my thesis", useType: "research" as const };

/** The text of the element carrying data-testid, as a browser shows it (React's text separators dropped). */
function testIdText(html: string, id: string, within?: string): string | undefined {
  const scope = within ? html.slice(html.indexOf(`data-testid="${within}"`)) : html;
  const match = new RegExp(`data-testid="${id}"[^>]*>([\\s\\S]*?)</(?:dd|p|strong)>`).exec(scope);
  return match?.[1]!
    .replace(/<[^>]+>/g, "")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ")
    .trim();
}

type RequestLine = { id: string; email: string; status: string; note: string | null };

/**
 * `npm start` as a newcomer runs it: the embedded database, no ADMIN_EMAILS, no SMTP, KEY_APPROVAL
 * manual. The operator gets in through the link the server prints, and decides key requests with the
 * keys CLI; the keys pages say what a console key is held to.
 */
describe("the embedded default's first start", { timeout: 300_000 }, () => {
  let server: ServerProcess;
  let env: Record<string, string>;
  let cleanup: () => Promise<void>;
  const asked: Array<{ id: string; userId: string; email: string }> = [];
  let requesterCookie: string;

  beforeAll(async () => {
    const b = await backendEnv("pglite");
    cleanup = b.cleanup;
    env = b.env;
    // Three people asked for keys through the portal's form (written here: PGlite admits one process).
    const db = await openDatabase(loadConfig(env));
    try {
      for (const email of ["ada@example.test", "bob@example.test", "cy@example.test"]) {
        const session = await createTestSession(db, email);
        if (!requesterCookie) requesterCookie = session.cookie;
        const request = await requestKey(db, session.userId, REQUEST, { mode: "manual" });
        asked.push({ id: request.id, userId: session.userId, email });
      }
    } finally {
      await db.close();
    }
    server = await startServerProcess(env);
  });
  afterAll(async () => {
    await server?.stop();
    await cleanup?.();
  });

  let operatorCookie: string;

  it("prints a one-time operator sign-in link that signs the operator in, and fails when used again", async () => {
    // Printed before the listening line the start waited for.
    const line = server
      .output()
      .split("\n")
      .find((l) => l.includes('"operatorSignInLink"'));
    const link = line && (JSON.parse(line) as { operatorSignInLink: string }).operatorSignInLink;
    expect(link).toMatch(/\/api\/auth\/callback\/email\?/);
    expect(server.output()).toMatch(/FIRST START: no operator has signed in and no SMTP is set/);

    const first = await fetch(link!, { redirect: "manual" });
    expect(first.status).toBe(302);
    expect(first.headers.get("location")).toBe(`${server.url}/admin`);
    const cookie = first.headers
      .getSetCookie()
      .map((c) => c.split(";")[0]!)
      .find((c) => c.startsWith(`${SESSION_COOKIE}=`));
    expect(cookie).toBeTruthy();
    operatorCookie = cookie!;
    const session = await (
      await fetch(`${server.url}/api/auth/session`, { headers: { cookie: operatorCookie } })
    ).json();
    expect(session.user).toMatchObject({ email: LOCAL_OPERATOR_EMAIL, operator: true });
    // Operator pages and the operator API answer the session.
    const usage = await fetch(`${server.url}/api/portal/admin/usage`, { headers: { cookie: operatorCookie } });
    expect(usage.status).toBe(200);
    const admin = await fetch(`${server.url}/admin/keys`, { headers: { cookie: operatorCookie, accept: HTML } });
    expect(admin.status).toBe(200);
    expect(await admin.text()).toMatch(/Keys \(\d+\)/);

    const again = await fetch(link!, { redirect: "manual" });
    expect(again.status).toBe(302);
    // next-auth's own error route, which shows /sign-in/error: the link is spent.
    expect(again.headers.get("location")).toBe(`${server.url}/api/auth/error?error=Verification`);
    expect(again.headers.getSetCookie().some((c) => c.startsWith(`${SESSION_COOKIE}=`))).toBe(false);
  });

  it("shows a console key as enforced: 1,000 a day, 60 a minute, 4 at once, six areas", async () => {
    // The consoles' first call makes the operator's console key; the gateway holds it to the console policy.
    const key = await fetch(`${server.url}/v1/key`, {
      headers: { cookie: operatorCookie, "sec-fetch-site": "same-origin" },
    });
    expect(key.status).toBe(200);
    const info = (await key.json()) as { prefix: string; limits: unknown };
    expect(info.limits).toEqual({ day: 1000, minute: 60, concurrency: 4 });
    const areas = "aac, datavis, generate, llm, orchestrate, trove";

    const keys = await (
      await fetch(`${server.url}/keys`, { headers: { cookie: operatorCookie, accept: HTML } })
    ).text();
    expect(testIdText(keys, "limits", `key-${info.prefix}`)).toBe("1,000/day · 60/min · 4 at once");
    expect(testIdText(keys, "areas", `key-${info.prefix}`)).toBe(areas);

    // Someone still waiting for approval: their console reaches the model areas only once they are
    // approved (the operator's own console is open), and their keys page says so, as the gateway enforces it.
    const waiting = { cookie: requesterCookie, "sec-fetch-site": "same-origin" };
    const theirs = (await (await fetch(`${server.url}/v1/key`, { headers: waiting })).json()) as { prefix: string };
    const chat = await fetch(`${server.url}/v1/llm/chat`, {
      method: "POST",
      headers: { ...waiting, "content-type": "application/json" },
      body: JSON.stringify({ messages: [{ role: "user", content: "hi" }] }),
    });
    expect(chat.status).toBe(403);
    const theirKeys = await (
      await fetch(`${server.url}/keys`, { headers: { cookie: requesterCookie, accept: HTML } })
    ).text();
    expect(testIdText(theirKeys, "areas", `key-${theirs.prefix}`)).toBe(
      "aac, datavis, trove (generate, llm, orchestrate once a key request of yours is approved)",
    );

    const admin = await (
      await fetch(`${server.url}/admin/keys`, { headers: { cookie: operatorCookie, accept: HTML } })
    ).text();
    const card = `admin-key-${info.prefix}`;
    expect(testIdText(admin, "areas", card)).toBe(`Areas: ${areas} (console default, CONSOLE_KEY_SCOPES)`);
    expect(["day", "minute", "concurrency"].map((w) => testIdText(admin, `limit-${w}`, card))).toEqual([
      "1,000",
      "60",
      "4",
    ]);
  });

  it("lists, approves and declines key requests with the keys CLI, through the running server", async () => {
    const listed = await runKeysCli(["requests"], env);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.lines).toEqual(
      asked.map((r) => expect.objectContaining({ id: r.id, email: r.email, status: "pending", name: "Thesis" })),
    );

    const approved = await runKeysCli(["approve", asked[0]!.id], env);
    expect(approved.code, approved.stderr).toBe(0);
    expect(approved.lines).toEqual([
      { id: asked[0]!.id, status: "approved", email: "ada@example.test", note: null, mail: "unsent" },
    ]);
    const declined = await runKeysCli(["decline", asked[1]!.id, "--reason", "Say more about the use"], env);
    expect(declined.lines).toEqual([expect.objectContaining({ status: "declined", note: "Say more about the use" })]);
    const twice = await runKeysCli(["decline", asked[0]!.id], env);
    expect(twice.code).toBe(1);
    expect(twice.stderr).toMatch(/no pending key request with id kr_\w+ \(decided already, or unknown\)/);

    // The requester's keys page now offers to create the key.
    const page = await (
      await fetch(`${server.url}/keys`, { headers: { cookie: requesterCookie, accept: HTML } })
    ).text();
    expect(page).toContain("Approved. The key is created when you press the button and shown once.");
    const pending = await runKeysCli(["requests"], env);
    expect(pending.lines.map((l) => (l as RequestLine).id)).toEqual([asked[2]!.id]);
  });

  it("decides with no server running too, and the approved requester's key works once collected", async () => {
    expect(await server.stop()).toBe(0);
    const approved = await runKeysCli(["approve", asked[2]!.id, "--note", "Welcome"], env);
    expect(approved.code, approved.stderr).toBe(0);
    expect(approved.lines).toEqual([
      expect.objectContaining({ id: asked[2]!.id, status: "approved", note: "Welcome" }),
    ]);
    const decided = await runKeysCli(["requests", "--status", "decided"], env);
    expect(Object.fromEntries(decided.lines.map((l) => [(l as RequestLine).id, (l as RequestLine).status]))).toEqual({
      [asked[0]!.id]: "approved",
      [asked[1]!.id]: "declined",
      [asked[2]!.id]: "approved",
    });

    // What the requester's "create the key" button does.
    const db = await openDatabase(loadConfig(env));
    const created = await pickUpKey(db, asked[0]!.id, asked[0]!.userId).finally(() => db.close());
    expect(created?.record.status).toBe("active");
    server = await startServerProcess(env);
    const res = await fetch(`${server.url}/v1/key`, { headers: { "X-API-Key": created!.key } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ name: "Thesis", status: "active" });
    // An operator has signed in: no link this time (it would come before the listening line).
    expect(server.output()).not.toContain("operatorSignInLink");
  });
});
