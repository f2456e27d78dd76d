import { Hono } from "hono";
import { listen } from "../support/listen.ts";

export type FakeGitHubAccount = {
  id: number;
  login: string;
  email: string | null;
  emails: Array<{ email: string; primary: boolean; verified: boolean }>;
};

export type FakeGitHub = { url: string; hits: string[]; close(): Promise<void> };

/**
 * GitHub's OAuth token endpoint and the two API calls sign-in makes (GET /user, GET /user/emails), in
 * GitHub's wire format. The authorization code names the account: code "x" signs in accounts["x"].
 */
export async function startFakeGitHub(accounts: Record<string, FakeGitHubAccount>): Promise<FakeGitHub> {
  const hits: string[] = [];
  const app = new Hono();
  app.use(async (c, next) => {
    hits.push(`${c.req.method} ${c.req.path}`);
    await next();
  });
  app.post("/login/oauth/access_token", async (c) => {
    const code = String((await c.req.parseBody()).code ?? "");
    if (!accounts[code]) return c.json({ error: "bad_verification_code" });
    return c.json({ access_token: `gho_${code}`, token_type: "bearer", scope: "read:user,user:email" });
  });
  const account = (auth: string | undefined) => accounts[/^(?:Bearer|token) gho_(.+)$/.exec(auth ?? "")?.[1] ?? ""];
  app.get("/user", (c) => {
    const a = account(c.req.header("authorization"));
    if (!a) return c.json({ message: "Bad credentials" }, 401);
    return c.json({
      id: a.id,
      login: a.login,
      name: null,
      email: a.email,
      avatar_url: `https://avatars.example.test/${a.id}`,
    });
  });
  app.get("/user/emails", (c) => {
    const a = account(c.req.header("authorization"));
    if (!a) return c.json({ message: "Bad credentials" }, 401);
    return c.json(a.emails.map((e) => ({ ...e, visibility: e.primary ? "public" : null })));
  });
  const { url, close } = await listen(app.fetch);
  return { url, hits, close };
}
