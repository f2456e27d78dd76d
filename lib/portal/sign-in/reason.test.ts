import { describe, expect, it } from "vitest";
import { signInError, signInPath, signInReason } from "./reason.ts";

describe("signInReason", () => {
  it("says why each portal area needs a signed-in visitor, from a relative or absolute return address", () => {
    expect(signInReason("/keys")).toMatch(/keys belong to your account/);
    expect(signInReason("http://127.0.0.1:3000/keys/request")).toMatch(/Requesting an API key/);
    expect(signInReason("/usage/requests/abc")).toMatch(/request log/);
    expect(signInReason("/usage")).toMatch(/usage dashboard/);
    expect(signInReason("https://gw.example/admin/audit?page=2")).toMatch(/ADMIN_EMAILS/);
    expect(signInReason("/console/chat")).toMatch(/consoles/);
  });

  it("gives no reason for pages anyone may see, look-alike paths, or nothing", () => {
    expect(signInReason(undefined)).toBeNull();
    expect(signInReason("/")).toBeNull();
    expect(signInReason("/docs")).toBeNull();
    expect(signInReason("/keysmith")).toBeNull();
    expect(signInReason("http://[bad")).toBeNull();
  });

  it("builds the sign-in address that comes back to the page", () => {
    expect(signInPath("/admin/keys?q=a b")).toBe("/sign-in?callbackUrl=%2Fadmin%2Fkeys%3Fq%3Da%20b");
  });
});

describe("signInError", () => {
  it("explains next-auth's codes, and something for a code it does not know", () => {
    expect(signInError("Verification")).toMatch(/works once, for 15 minutes/);
    expect(signInError("Nonsense")).toBe("Sign-in did not work. Try again.");
    expect(signInError(undefined)).toBeNull();
  });
});
