import { describe, expect, it } from "vitest";
import { oidcSignInAllowed, verifiedOidcEmail } from "./oidc.ts";

describe("OpenID Connect sign-in", () => {
  it("takes an address only when the provider says it is verified", () => {
    expect(verifiedOidcEmail({ email: "Ada@Example.test", email_verified: true })).toBe("ada@example.test");
    expect(verifiedOidcEmail({ email: "ada@example.test", email_verified: false })).toBeNull();
    expect(verifiedOidcEmail({ email: "ada@example.test" })).toBeNull();
  });

  it("lets a returning user in only while the provider still vouches for their stored address", () => {
    const oidc = { provider: "oidc" };
    const vouched = { email: "ada@example.test", email_verified: true } as never;
    expect(oidcSignInAllowed({ email: "ada@example.test" }, oidc, vouched)).toBe(true);
    expect(oidcSignInAllowed({ email: "ada@example.test" }, oidc, { email: "ada@example.test" } as never)).toBe(false);
    expect(oidcSignInAllowed({ email: null }, oidc, {} as never)).toBe(true);
    expect(oidcSignInAllowed({ email: "x@example.test" }, { provider: "github" }, undefined)).toBe(true);
  });
});
