import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../lib/config.ts";
import { openDatabase } from "../lib/db/client.ts";
import { startFakeGitHub, type FakeGitHub } from "./fakes/github.ts";
import { startFakeOidc, type FakeOidc } from "./fakes/oidc.ts";
import { backendEnv } from "./support/backends.ts";
import { CookieJar } from "./support/cookie-jar.ts";
import { freePort } from "./support/next-build.ts";
import { runKeysCli, startServerProcess, type ServerProcess } from "./support/server-process.ts";

const BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";

describe("npm start's server: the portal through Next, the API straight to Hono", () => {
  let server: ServerProcess;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    const b = await backendEnv("pglite");
    cleanup = b.cleanup;
    server = await startServerProcess(b.env);
  });
  afterAll(async () => {
    await server?.stop();
    await cleanup?.();
  });

  it("shows a browser the portal home, with its stylesheet", async () => {
    const res = await fetch(`${server.url}/`, { headers: { accept: BROWSER_ACCEPT } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/text\/html/);
    const html = await res.text();
    expect(html).toContain("Unified API Gateway");
    const css = /href="(\/_next\/static\/[^"]+\.css)"/.exec(html)?.[1];
    expect(css).toBeTruthy();
    expect((await fetch(`${server.url}${css}`)).status).toBe(200);
  });

  it("gives programs the JSON index at / and the API under /v1", async () => {
    for (const accept of ["application/json", "*/*"]) {
      const res = await fetch(`${server.url}/`, { headers: { accept } });
      expect(res.headers.get("content-type")).toMatch(/application\/json/);
      expect((await res.json()).version).toBe("v1");
    }
    expect(await (await fetch(`${server.url}/health`)).json()).toEqual({ status: "ok", version: "1.0.0" });
    expect((await fetch(`${server.url}/v1/capabilities`)).status).toBe(200);
    expect((await fetch(`${server.url}/openapi.json`)).status).toBe(200);
    expect((await fetch(`${server.url}/metrics`)).status).toBe(200);
  });

  it("answers unknown portal pages from Next with 404", async () => {
    const res = await fetch(`${server.url}/no-such-page`, { headers: { accept: BROWSER_ACCEPT } });
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toMatch(/text\/html/);
    expect(await res.text()).toMatch(/This page could not be found/);
  });
});

describe("next start: the same API through Next's route handlers", () => {
  let proc: ChildProcess;
  let url: string;
  let env: Record<string, string>;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    const b = await backendEnv("pglite");
    cleanup = b.cleanup;
    env = b.env;
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    const { DATABASE_URL: _d, REDIS_URL: _r, ...inherited } = process.env;
    proc = spawn("npx", ["--no-install", "next", "start", "-p", String(port), "-H", "127.0.0.1"], {
      env: { ...inherited, ...env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" },
      stdio: "ignore",
      detached: true,
    });
    const deadline = Date.now() + 60_000;
    for (;;) {
      try {
        if ((await fetch(`${url}/health`)).ok) break;
      } catch {
        if (Date.now() > deadline) throw new Error("next start did not come up");
        await new Promise((r) => setTimeout(r, 250));
      }
    }
  });
  afterAll(async () => {
    if (proc?.pid && proc.exitCode === null) {
      const exited = once(proc, "exit");
      process.kill(-proc.pid, "SIGTERM");
      await exited;
    }
    await cleanup?.();
  });

  it("serves the status endpoints", async () => {
    expect(await (await fetch(`${url}/health`)).json()).toEqual({ status: "ok", version: "1.0.0" });
    const caps = await (await fetch(`${url}/v1/capabilities`)).json();
    expect(caps.endpoints).toBeGreaterThan(0);
    const doc = await (await fetch(`${url}/openapi.json`)).json();
    expect(doc.openapi).toBe("3.1.0");
  });

  it("serves / as JSON to programs (proxy rewrite) and as the portal to browsers", async () => {
    const json = await fetch(`${url}/`, { headers: { accept: "application/json" } });
    expect((await json.json()).version).toBe("v1");
    const html = await fetch(`${url}/`, { headers: { accept: BROWSER_ACCEPT } });
    expect(await html.text()).toContain("Unified API Gateway");
  });

  it("authenticates and limits keyed routes the same way", async () => {
    const made = await runKeysCli(["create", "--name", "via-next", "--minute", "2"], env);
    expect(made.code, made.stderr).toBe(0);
    const { key } = made.lines[0] as { key: string };
    const headers = { "X-API-Key": key };
    const first = await fetch(`${url}/v1/key`, { headers });
    expect(first.status).toBe(200);
    expect(first.headers.get("x-ratelimit-limit")).toBe("2");
    expect((await fetch(`${url}/v1/key`, { headers: { Authorization: `Bearer ${key}` } })).status).toBe(200);
    const third = await fetch(`${url}/v1/key?api_key=${key}`);
    expect(third.status).toBe(429);
    expect((await third.json()).error.code).toBe("rate_limit_exceeded");
    expect((await fetch(`${url}/v1/key`)).status).toBe(401);
  });
});

const FORM = "application/x-www-form-urlencoded";

describe(
  "sign-in: operator rights from verified addresses only, links limited and short-lived",
  { timeout: 120_000 },
  () => {
    let server: ServerProcess;
    let github: FakeGitHub;
    let oidc: FakeOidc;
    let env: Record<string, string>;
    let cleanup: () => Promise<void>;
    beforeAll(async () => {
      github = await startFakeGitHub({
        "ops-verified": {
          id: 1,
          login: "ops",
          email: "ops@example.test",
          emails: [{ email: "ops@example.test", primary: true, verified: true }],
        },
        // Claims an operator's address on its profile without having verified it; owns another.
        "claims-admin": {
          id: 2,
          login: "mallory",
          email: "admin@example.test",
          emails: [
            { email: "admin@example.test", primary: true, verified: false },
            { email: "mallory@example.test", primary: false, verified: true },
          ],
        },
        "unverified-only": {
          id: 3,
          login: "eve",
          email: null,
          emails: [{ email: "boss@example.test", primary: true, verified: false }],
        },
      });
      oidc = await startFakeOidc(
        { id: "sso-client", secret: "sso-secret" },
        {
          "sso-ops": { sub: "u-1", email: "Lead@Example.test", email_verified: true, name: "Lead" },
          // The company's directory holds an operator's address it never verified.
          "sso-unverified": { sub: "u-2", email: "admin@example.test", email_verified: false },
        },
      );
      const b = await backendEnv("pglite");
      cleanup = b.cleanup;
      env = {
        ...b.env,
        ADMIN_EMAILS: "ops@example.test,admin@example.test,boss@example.test,lead@example.test",
        GITHUB_ID: "gh-client",
        GITHUB_SECRET: "gh-secret",
        UPSTREAM_GITHUB_URL: github.url,
        UPSTREAM_GITHUB_OAUTH_URL: github.url,
        OIDC_ISSUER: oidc.url,
        OIDC_CLIENT_ID: "sso-client",
        OIDC_CLIENT_SECRET: "sso-secret",
        OIDC_NAME: "Acme SSO",
      };
      server = await startServerProcess(env);
    });
    afterAll(async () => {
      await server?.stop();
      await github?.close();
      await oidc?.close();
      await cleanup?.();
    });

    async function csrf(jar: CookieJar): Promise<string> {
      const res = await fetch(`${server.url}/api/auth/csrf`, { headers: { cookie: jar.header() } });
      jar.take(res);
      return ((await res.json()) as { csrfToken: string }).csrfToken;
    }

    /** The OAuth dance a browser does, with the provider's side answered by its fake: returns the resulting session. */
    async function signInWith(provider: "github" | "oidc", code: string) {
      const jar = new CookieJar();
      const body = new URLSearchParams({ csrfToken: await csrf(jar), callbackUrl: `${server.url}/keys` });
      const start = await fetch(`${server.url}/api/auth/signin/${provider}`, {
        method: "POST",
        redirect: "manual",
        headers: { cookie: jar.header(), "content-type": FORM },
        body,
      });
      jar.take(start);
      const authorize = new URL(start.headers.get("location")!);
      expect(`${authorize.origin}${authorize.pathname}`).toBe(
        provider === "github" ? `${github.url}/login/oauth/authorize` : `${oidc.url}/authorize`,
      );
      const callback = new URL(authorize.searchParams.get("redirect_uri")!);
      callback.searchParams.set("code", code);
      callback.searchParams.set("state", authorize.searchParams.get("state")!);
      const back = await fetch(callback, { redirect: "manual", headers: { cookie: jar.header() } });
      jar.take(back);
      const session = (await (
        await fetch(`${server.url}/api/auth/session`, { headers: { cookie: jar.header() } })
      ).json()) as {
        user?: { email?: string | null; operator?: boolean };
      };
      return { redirect: back.headers.get("location"), user: session.user, authorize };
    }
    const signInWithGitHub = (code: string) => signInWith("github", code);

    it("makes a GitHub user an operator only when GitHub reports the listed address as verified", async () => {
      expect(await signInWithGitHub("ops-verified")).toMatchObject({
        redirect: `${server.url}/keys`,
        user: { email: "ops@example.test", operator: true },
      });
      // The unverified operator address is never taken: the account signs in with the address it proved.
      expect(await signInWithGitHub("claims-admin")).toMatchObject({
        user: { email: "mallory@example.test", operator: false },
      });
      const unverified = await signInWithGitHub("unverified-only");
      expect(unverified.user).toMatchObject({ email: null, operator: false });
      expect(github.hits.filter((h) => h === "GET /user/emails")).toHaveLength(3);
    });

    it("signs in through a company's OpenID Connect provider, trusting only the addresses it verified", async () => {
      const page = await (await fetch(`${server.url}/sign-in`)).text();
      expect(page).toContain("Sign in with Acme SSO");
      const lead = await signInWith("oidc", "sso-ops");
      // PKCE and state on the way out; the ID token's signature, issuer and audience checked on the way back.
      expect(lead.authorize.searchParams.get("code_challenge_method")).toBe("S256");
      expect(lead.authorize.searchParams.get("scope")).toBe("openid email profile");
      expect(lead).toMatchObject({
        redirect: `${server.url}/keys`,
        user: { email: "lead@example.test", operator: true },
      });
      // An address the provider did not verify is never taken, so it gives no operator rights.
      const unverified = await signInWith("oidc", "sso-unverified");
      expect(unverified.user).toMatchObject({ email: null, operator: false });
      expect(oidc.hits).toContain("GET /jwks");
    });

    let linksSent = 0;
    /**
     * Asks for a link the way the form does, or as a program may: a JSON body, the address after a decoy
     * in a repeated field (next-auth reads the last), a path below /signin/email (next-auth ignores the rest).
     */
    async function askForLink(
      email: string,
      headers: Record<string, string> = {},
      as: { json?: true; decoy?: string; path?: string } = {},
    ): Promise<Response> {
      const jar = new CookieJar();
      const fields = { csrfToken: await csrf(jar), email, callbackUrl: server.url };
      const form = new URLSearchParams(fields);
      if (as.decoy) {
        form.set("email", as.decoy);
        form.append("email", email);
      }
      const res = await fetch(`${server.url}${as.path ?? "/api/auth/signin/email"}`, {
        method: "POST",
        redirect: "manual",
        headers: {
          cookie: jar.header(),
          "content-type": as.json ? "application/json" : FORM,
          accept: "application/json",
          ...headers,
        },
        body: as.json ? JSON.stringify(fields) : form,
      });
      if (res.status === 302) {
        expect(res.headers.get("location")).toMatch(/\/api\/auth\/verify-request/);
        linksSent++;
      }
      return res;
    }

    it("keeps an operator's sign-in link out of the production log (no SMTP), and still logs a user's", async () => {
      expect((await askForLink("ops@example.test")).status).toBe(302);
      expect((await askForLink("dev@example.test")).status).toBe(302);
      await expect.poll(() => server.output(), { timeout: 10_000 }).toMatch(/dev%40example\.test/);
      const log = server.output();
      expect(log).toMatch(/"email":"ops@example.test".*operator address not written to the log/);
      // The one operator link the log holds is the first-run link printed at start (test/first-run.test.ts).
      const firstRun = log.split("\n").filter((l) => l.includes('"operatorSignInLink"'));
      expect(firstRun).toHaveLength(1);
      expect(log.replace(firstRun[0]!, "")).not.toMatch(/callback\/email\?[^"]*ops%40example\.test/);
    });

    it("shows usage whose status classes add up to the requests, a 429 counted once", async () => {
      const made = await runKeysCli(
        ["create", "--name", "counted", "--email", "counter@example.test", "--minute", "10"],
        env,
      );
      expect(made.code, made.stderr).toBe(0);
      const headers = { "X-API-Key": (made.lines[0] as { key: string }).key };
      const statuses: number[] = [];
      for (let i = 0; i < 8; i++) statuses.push((await fetch(`${server.url}/v1/key`, { headers })).status);
      for (let i = 0; i < 2; i++) {
        const bad = await fetch(`${server.url}/v1/utils/convert`, {
          method: "POST",
          headers: { ...headers, "content-type": "application/json" },
          body: "{}",
        });
        statuses.push(bad.status);
      }
      for (let i = 0; i < 2; i++) statuses.push((await fetch(`${server.url}/v1/key`, { headers })).status);
      expect(statuses).toEqual([...Array(8).fill(200), 400, 400, 429, 429]);

      // Signed in as the key's owner through the link the server logged (a user's, so it is logged).
      expect((await askForLink("counter@example.test")).status).toBe(302);
      let link: string | undefined;
      await expect
        .poll(
          () => {
            for (const line of server
              .output()
              .split("\n")
              .filter((l) => l.startsWith("{"))) {
              const entry = JSON.parse(line) as { email?: string; signInLink?: string };
              if (entry.email === "counter@example.test" && entry.signInLink) link = entry.signInLink;
            }
            return link;
          },
          { timeout: 10_000 },
        )
        .toBeTruthy();
      const jar = new CookieJar();
      jar.take(await fetch(link!, { redirect: "manual" }));
      type Report = { totals: { requests: number; ok: number; client: number; server: number; limited: number } };
      let report: Report | undefined;
      await expect
        .poll(
          async () => {
            const res = await fetch(`${server.url}/api/portal/usage`, { headers: { cookie: jar.header() } });
            report = ((await res.json()) as { report: Report }).report;
            return report.totals.requests;
          },
          { timeout: 20_000, interval: 500 },
        )
        .toBe(12);
      expect(report!.totals).toMatchObject({ ok: 8, client: 2, server: 0, limited: 2 });
      // The same usage sliced: this month, grouped by a tag nobody sent; a period starting tomorrow is refused in words.
      const sliced = await fetch(`${server.url}/api/portal/usage?range=month&tag=feature`, {
        headers: { cookie: jar.header() },
      });
      const body = (await sliced.json()) as { report: Report & { label: string }; tags: { name: string; rows: [] } };
      expect(body.report).toMatchObject({ label: "This month", totals: { requests: 12 } });
      expect(body.tags).toMatchObject({ name: "feature", rows: [] });
      const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
      const refused = await fetch(`${server.url}/api/portal/usage?from=${tomorrow}`, {
        headers: { cookie: jar.header() },
      });
      expect(refused.status).toBe(400);
      expect(await refused.json()).toEqual({ error: expect.stringMatching(/^the period cannot start after today/) });
      // The same numbers as CSV: this month's endpoints, and a group there is none of refused in words.
      const csv = await fetch(`${server.url}/usage/export?range=month&group=endpoint`, {
        headers: { cookie: jar.header() },
      });
      expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
      const lines = (await csv.text()).split("\r\n");
      expect(lines[0]).toBe("from,to,route,area,requests,ok,client_errors,rate_limited,server_errors,tokens");
      expect(lines.find((l) => l.includes(",/v1/key,"))).toMatch(/,\/v1\/key,account,10,8,0,2,0,0$/);
      const badGroup = await fetch(`${server.url}/usage/export?group=week`, { headers: { cookie: jar.header() } });
      expect(badGroup.status).toBe(400);
      expect(await badGroup.json()).toEqual({ error: "group must be one of day, endpoint, model, key, tag" });
    });

    it("sends at most 5 links per address in 15 minutes, however the address is spelled or sent, and 20 per client in an hour, saying so", async () => {
      // Each of these mails many@example.test, so each counts against that one address.
      const spellings = [
        askForLink.bind(null, "Many@Example.test"),
        askForLink.bind(null, " many@EXAMPLE.test", {}, { path: "/api/auth/signin/email/again" }),
        askForLink.bind(null, "many@example.test,again"),
        askForLink.bind(null, "ｍａｎｙ@example.test", {}, { json: true }),
        askForLink.bind(null, "MANY@example.test", {}, { decoy: "decoy@example.test" }),
      ];
      for (const ask of spellings) expect((await ask()).status).toBe(302);
      const sixth = await askForLink("many@example.test");
      expect(sixth.status).toBe(429);
      expect(Number(sixth.headers.get("retry-after"))).toBeGreaterThan(14 * 60);
      expect(await sixth.json()).toMatchObject({
        error: { code: "rate_limit_exceeded", message: expect.stringMatching(/5 in 15 minutes/) },
      });
      const page = await askForLink("many@example.test", { accept: "text/html" });
      expect(page.status).toBe(429);
      expect(await page.text()).toMatch(/Too many sign-in links for this address/);

      for (let i = 0; linksSent < 20; i++) expect((await askForLink(`person${i}@example.test`)).status).toBe(302);
      // A client cannot pick its own address to escape the limit: server.ts overwrites the header.
      const next = await askForLink("one-more@example.test", { "x-gateway-client-address": "198.51.100.9" });
      expect(next.status).toBe(429);
      expect((await next.json()).error.message).toMatch(/from your network: 20 in 60 minutes/);
    });

    it("makes links that expire 15 minutes after they are sent", async () => {
      const sentBy = Date.now();
      expect(await server.stop()).toBe(0);
      const db = await openDatabase(loadConfig(env));
      try {
        const tokens = await db.prisma.verificationToken.findMany();
        // Besides them, the first-run link printed at start (no operator had signed in; no SMTP): 24 h, unused.
        const firstRun = tokens.filter((t) => t.expires.getTime() > sentBy + 60 * 60_000);
        expect(firstRun.map((t) => t.identifier)).toEqual(["ops@example.test"]);
        const asked = tokens.filter((t) => !firstRun.includes(t));
        // Every link sent but the one used to sign in (spent on use).
        expect(asked).toHaveLength(linksSent - 1);
        for (const t of asked) {
          expect(t.expires.getTime()).toBeLessThanOrEqual(sentBy + 15 * 60_000);
          expect(t.expires.getTime()).toBeGreaterThan(sentBy + 10 * 60_000);
        }
      } finally {
        await db.close();
      }
    });
  },
);

describe("the portal's security headers", () => {
  const pages = ["/", "/docs", "/console/datavis", "/api/auth/signin", "/no-such-page"];
  let server: ServerProcess;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    const b = await backendEnv("pglite");
    cleanup = b.cleanup;
    // An HTTPS public address (behind a TLS-terminating proxy): the portal then also sends HSTS.
    server = await startServerProcess({ ...b.env, PUBLIC_BASE_URL: "https://portal.example.test" });
  });
  afterAll(async () => {
    await server?.stop();
    await cleanup?.();
  });

  it("sends every portal page with its CSP (no framing), nosniff, a referrer policy and HSTS", async () => {
    for (const path of pages) {
      const res = await fetch(`${server.url}${path}`, { headers: { accept: BROWSER_ACCEPT }, redirect: "manual" });
      const csp = res.headers.get("content-security-policy") ?? "";
      expect(csp, path).toContain("frame-ancestors 'none'");
      expect(csp, path).toContain("script-src 'self'");
      expect(csp, path).toContain("object-src 'none'");
      expect(res.headers.get("x-content-type-options"), path).toBe("nosniff");
      expect(res.headers.get("referrer-policy"), path).toBe("strict-origin-when-cross-origin");
      expect(res.headers.get("strict-transport-security"), path).toMatch(/^max-age=\d+/);
    }
  });
});
