import { Hono } from "hono";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { listen } from "../support/listen.ts";

export type FakeOidcAccount = { sub: string; email: string; email_verified: boolean; name?: string };

export type FakeOidc = { url: string; hits: string[]; close(): Promise<void> };

/**
 * An OpenID Connect provider in the protocol's wire format: discovery, the token endpoint (client
 * authentication checked, an RS256-signed ID token issued), the JWKS and userinfo. The authorization code
 * names the account: code "x" signs in accounts["x"]; the browser's visit to /authorize is the test's.
 */
export async function startFakeOidc(
  client: { id: string; secret: string },
  accounts: Record<string, FakeOidcAccount>,
): Promise<FakeOidc> {
  const { publicKey, privateKey } = await generateKeyPair("RS256");
  const jwk = { ...(await exportJWK(publicKey)), kid: "fake-1", alg: "RS256", use: "sig" };
  const hits: string[] = [];
  const app = new Hono();
  let url = "";
  app.use(async (c, next) => {
    hits.push(`${c.req.method} ${c.req.path}`);
    await next();
  });
  app.get("/.well-known/openid-configuration", (c) =>
    c.json({
      issuer: url,
      authorization_endpoint: `${url}/authorize`,
      token_endpoint: `${url}/token`,
      jwks_uri: `${url}/jwks`,
      userinfo_endpoint: `${url}/userinfo`,
      response_types_supported: ["code"],
      subject_types_supported: ["public"],
      id_token_signing_alg_values_supported: ["RS256"],
      token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post"],
      code_challenge_methods_supported: ["S256"],
      scopes_supported: ["openid", "email", "profile"],
    }),
  );
  app.get("/jwks", (c) => c.json({ keys: [jwk] }));
  app.post("/token", async (c) => {
    const form = await c.req.parseBody();
    const basic = c.req.header("authorization");
    const expected = `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString("base64")}`;
    if (basic !== expected && !(form.client_id === client.id && form.client_secret === client.secret))
      return c.json({ error: "invalid_client" }, 401);
    if (typeof form.code_verifier !== "string") return c.json({ error: "invalid_request" }, 400);
    const account = accounts[String(form.code ?? "")];
    if (!account) return c.json({ error: "invalid_grant" }, 400);
    const idToken = await new SignJWT({ ...account })
      .setProtectedHeader({ alg: "RS256", kid: jwk.kid })
      .setIssuer(url)
      .setAudience(client.id)
      .setIssuedAt()
      .setExpirationTime("5m")
      .sign(privateKey);
    return c.json({ access_token: `at_${account.sub}`, token_type: "Bearer", expires_in: 300, id_token: idToken });
  });
  app.get("/userinfo", (c) => {
    const account = Object.values(accounts).find((a) => c.req.header("authorization") === `Bearer at_${a.sub}`);
    return account ? c.json(account) : c.json({ error: "invalid_token" }, 401);
  });
  const served = await listen(app.fetch);
  url = served.url;
  return { url, hits, close: served.close };
}
