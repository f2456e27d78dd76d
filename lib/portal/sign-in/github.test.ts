import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeGitHub, type FakeGitHub } from "../../../test/fakes/github.ts";
import { fetchGitHubProfile, gitHubSignInAllowed, verifiedGitHubEmail } from "./github.ts";

describe("GitHub addresses", () => {
  let github: FakeGitHub;
  beforeAll(async () => {
    github = await startFakeGitHub({
      a: {
        id: 7,
        login: "octo",
        email: "Claimed@Example.test",
        emails: [
          { email: "claimed@example.test", primary: true, verified: false },
          { email: "proven@example.test", primary: false, verified: true },
        ],
      },
    });
  });
  afterAll(async () => {
    await github?.close();
  });

  it("keeps only an address GitHub has verified: the profile's own, else the primary, else any, else none", () => {
    const e = (email: string, primary: boolean, verified: boolean) => ({ email, primary, verified });
    expect(verifiedGitHubEmail("a@x.test", [e("a@x.test", false, true), e("b@x.test", true, true)]).email).toBe(
      "a@x.test",
    );
    expect(verifiedGitHubEmail("a@x.test", [e("a@x.test", false, false), e("b@x.test", true, true)]).email).toBe(
      "b@x.test",
    );
    expect(verifiedGitHubEmail(null, [e("a@x.test", true, false), e("c@x.test", false, true)]).email).toBe("c@x.test");
    expect(verifiedGitHubEmail("a@x.test", [e("a@x.test", true, false)])).toEqual({ email: null, verified: [] });
  });

  it("reads /user and /user/emails from UPSTREAM_GITHUB_URL with the user's token", async () => {
    const profile = await fetchGitHubProfile("gho_a", { ...process.env, UPSTREAM_GITHUB_URL: github.url });
    expect(profile).toMatchObject({
      id: 7,
      login: "octo",
      email: "proven@example.test",
      verified_emails: ["proven@example.test"],
    });
    await expect(fetchGitHubProfile("gho_nobody", { ...process.env, UPSTREAM_GITHUB_URL: github.url })).rejects.toThrow(
      /answered 401/,
    );
  });

  it("lets a GitHub sign-in through only with a verified address or none; other providers are not its business", () => {
    const profile = { verified_emails: ["proven@example.test"] } as never;
    const gh = { provider: "github" };
    expect(gitHubSignInAllowed({ email: "Proven@example.test" }, gh, profile)).toBe(true);
    expect(gitHubSignInAllowed({ email: null }, gh, profile)).toBe(true);
    // A returning user stored with an address GitHub no longer (or never) verified.
    expect(gitHubSignInAllowed({ email: "claimed@example.test" }, gh, profile)).toBe(false);
    expect(gitHubSignInAllowed({ email: "claimed@example.test" }, { provider: "email" }, undefined)).toBe(true);
  });
});
