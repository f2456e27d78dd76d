import { describe, expect, it } from "vitest";
import { tempDir } from "../../test/support/backends.ts";
import { isOperatorEmail, LOCAL_OPERATOR_EMAIL, loadPortalConfig } from "./config.ts";

describe("the key approval settings", () => {
  const dir = tempDir("portal-approval");
  const load = (env: Record<string, string>) =>
    loadPortalConfig({ DATA_DIR: dir, NEXTAUTH_SECRET: "s".repeat(32), ...env });

  it("is manual by default", () => {
    expect(load({})).toMatchObject({ keyApproval: { mode: "manual" }, deprecations: [] });
  });

  it("reads KEY_APPROVAL, and KEY_APPROVAL_DOMAINS with domains", () => {
    expect(load({ KEY_APPROVAL: "auto" }).keyApproval).toEqual({ mode: "auto" });
    expect(load({ KEY_APPROVAL: "manual" }).keyApproval).toEqual({ mode: "manual" });
    expect(load({ KEY_APPROVAL: "domains", KEY_APPROVAL_DOMAINS: "Example.com, example.org" }).keyApproval).toEqual({
      mode: "domains",
      domains: ["example.com", "example.org"],
    });
  });

  it("keeps AUTO_APPROVE_KEYS working as a deprecated alias, with a notice for the startup log", () => {
    expect(load({ AUTO_APPROVE_KEYS: "true" })).toMatchObject({
      keyApproval: { mode: "auto" },
      deprecations: ["AUTO_APPROVE_KEYS is deprecated: set KEY_APPROVAL=auto instead"],
    });
    expect(load({ AUTO_APPROVE_KEYS: "false" })).toMatchObject({
      keyApproval: { mode: "manual" },
      deprecations: ["AUTO_APPROVE_KEYS is deprecated: set KEY_APPROVAL=manual instead"],
    });
    // Agreeing with KEY_APPROVAL, it is only redundant.
    expect(load({ AUTO_APPROVE_KEYS: "true", KEY_APPROVAL: "auto" }).keyApproval).toEqual({ mode: "auto" });
  });

  it("refuses settings that contradict each other or would never be read, saying what to change", () => {
    expect(() => load({ AUTO_APPROVE_KEYS: "true", KEY_APPROVAL: "manual" })).toThrow(
      "invalid configuration: AUTO_APPROVE_KEYS=true contradicts KEY_APPROVAL=manual; remove AUTO_APPROVE_KEYS (deprecated)",
    );
    expect(() =>
      load({ AUTO_APPROVE_KEYS: "false", KEY_APPROVAL: "domains", KEY_APPROVAL_DOMAINS: "example.com" }),
    ).toThrow(/AUTO_APPROVE_KEYS=false contradicts KEY_APPROVAL=domains/);
    expect(() => load({ KEY_APPROVAL: "domains" })).toThrow(
      "invalid configuration: KEY_APPROVAL=domains needs KEY_APPROVAL_DOMAINS, e.g. KEY_APPROVAL_DOMAINS=example.com,example.org",
    );
    expect(() => load({ KEY_APPROVAL_DOMAINS: "example.com" })).toThrow(
      "invalid configuration: KEY_APPROVAL_DOMAINS is read only with KEY_APPROVAL=domains (KEY_APPROVAL is manual)",
    );
    expect(() => load({ KEY_APPROVAL: "domains", KEY_APPROVAL_DOMAINS: "*.example.com" })).toThrow(
      /^invalid configuration: KEY_APPROVAL_DOMAINS: "\*\.example\.com" is not a domain/,
    );
    expect(() => load({ KEY_APPROVAL: "sometimes" })).toThrow(/KEY_APPROVAL/);
  });
});

describe("the operators", () => {
  const dir = tempDir("portal-operators");
  const load = (env: Record<string, string>) =>
    loadPortalConfig({ DATA_DIR: dir, NEXTAUTH_SECRET: "s".repeat(32), ...env });

  it("are ADMIN_EMAILS, lowercased", () => {
    expect([...load({ ADMIN_EMAILS: " Ops@Example.test ,b@example.test" }).adminEmails]).toEqual([
      "ops@example.test",
      "b@example.test",
    ]);
  });

  it("are the local operator on the embedded default (no ADMIN_EMAILS, no SMTP), nobody once mail is set", () => {
    expect([...load({}).adminEmails]).toEqual([LOCAL_OPERATOR_EMAIL]);
    expect(isOperatorEmail(load({}), "Operator@Localhost")).toBe(true);
    expect(load({ SMTP_URL: "smtp://mail.example.test" }).adminEmails.size).toBe(0);
  });
});
