import { describe, expect, it } from "vitest";
import { MAX_SIGN_IN_ADDRESS, normalizeSignInAddress, signInEmailField, signInIdentifier } from "./address.ts";

const post = (body: string, type: string) =>
  new Request("http://localhost/api/auth/signin/email", { method: "POST", headers: { "content-type": type }, body });

describe("the address a sign-in link goes to", () => {
  it("is one address however it is spelled: case, spaces, compatibility forms, a comma's tail", () => {
    for (const spelling of [
      "user@x.test",
      "User@X.test",
      "  user@x.test\t",
      "USER@X.TEST",
      "user@x.test,anything",
      "user@x.test,",
      "ｕｓｅｒ@ｘ.test",
    ])
      expect(normalizeSignInAddress(spelling), spelling).toBe("user@x.test");
  });

  it("is none for what next-auth refuses, and for an address too long to be one", () => {
    for (const bad of ["", "user", "a@b@c.test", '"a"@x.test', "@x.test", "user@", "user@localhost", "user@,x.test"])
      expect(normalizeSignInAddress(bad), bad).toBeNull();
    const long = `${"a".repeat(MAX_SIGN_IN_ADDRESS)}@x.test`;
    expect(normalizeSignInAddress(long)).toBeNull();
    expect(() => signInIdentifier(long)).toThrow("Invalid email address format.");
    expect(signInIdentifier(" A@X.test")).toBe("a@x.test");
  });

  it("is read from the body as next-auth reads it: JSON or URL-encoded by a mention in the type, the last repeat", async () => {
    expect(await signInEmailField(post("email=a%40x.test&email=b%40x.test", "application/x-www-form-urlencoded"))).toBe(
      "b@x.test",
    );
    expect(await signInEmailField(post('{"email":"c@x.test"}', "application/json"))).toBe("c@x.test");
    expect(await signInEmailField(post("email=d%40x.test", "text/plain; x=application/x-www-form-urlencoded"))).toBe(
      "d@x.test",
    );
    expect(await signInEmailField(post('{"email":["e@x.test"]}', "application/json"))).toBeNull();
    expect(await signInEmailField(post("{nope", "application/json"))).toBeNull();
    expect(await signInEmailField(post("email=f%40x.test", "text/plain"))).toBeNull();
  });
});
