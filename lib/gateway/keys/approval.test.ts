import { describe, expect, it } from "vitest";
import { decideByPolicy, emailDomain, parseApprovalDomains, type KeyApprovalPolicy } from "./approval.ts";

const domains = (...list: string[]): KeyApprovalPolicy => ({ mode: "domains", domains: list });

describe("decideByPolicy", () => {
  it("leaves every request to an operator under manual, and approves every one under auto", () => {
    expect(decideByPolicy({ mode: "manual" }, "a@example.com")).toEqual({ approved: false });
    expect(decideByPolicy({ mode: "auto" }, "a@example.com")).toEqual({ approved: true, by: "auto-approve" });
    expect(decideByPolicy({ mode: "auto" }, null)).toEqual({ approved: true, by: "auto-approve" });
  });

  it("approves addresses at a listed domain, case-insensitively, naming the domain for the audit log", () => {
    const policy = domains("example.com", "example.org");
    expect(decideByPolicy(policy, "ada@example.com")).toEqual({ approved: true, by: "auto-approve:example.com" });
    expect(decideByPolicy(policy, "Ada@EXAMPLE.Org")).toEqual({ approved: true, by: "auto-approve:example.org" });
  });

  it("matches the domain exactly: no subdomains, parents or look-alikes unless listed", () => {
    const policy = domains("example.com");
    for (const email of [
      "a@sub.example.com",
      "a@com",
      "a@example.com.evil.test",
      "a@notexample.com",
      "a@example.co",
      "example.com@evil.test",
    ])
      expect(decideByPolicy(policy, email), email).toEqual({ approved: false });
    expect(decideByPolicy(domains("example.com", "sub.example.com"), "a@sub.example.com").approved).toBe(true);
  });

  it("leaves a request without an address (a GitHub account with no verified one) to an operator", () => {
    expect(decideByPolicy(domains("example.com"), null)).toEqual({ approved: false });
    expect(decideByPolicy(domains("example.com"), undefined)).toEqual({ approved: false });
    expect(decideByPolicy(domains("example.com"), "not-an-address")).toEqual({ approved: false });
  });
});

describe("emailDomain", () => {
  it("is what follows the last @, lowercased; null without one", () => {
    expect(emailDomain("a@Example.COM")).toBe("example.com");
    expect(emailDomain('"a@b"@example.com')).toBe("example.com");
    expect(emailDomain("a@")).toBeNull();
    expect(emailDomain("@example.com")).toBeNull();
    expect(emailDomain("")).toBeNull();
  });
});

describe("parseApprovalDomains", () => {
  it("reads a comma list, trimmed, lowercased, without repeats or empty entries", () => {
    expect(parseApprovalDomains(" Example.com, example.org,,EXAMPLE.COM ,xn--bcher-kva.example ")).toEqual([
      "example.com",
      "example.org",
      "xn--bcher-kva.example",
    ]);
    expect(parseApprovalDomains("")).toEqual([]);
  });

  it("refuses entries that are not plain domains, naming each one", () => {
    expect(() => parseApprovalDomains("example.com,*.example.org")).toThrow(/"\*\.example\.org" is not a domain/);
    expect(() => parseApprovalDomains("@example.com, localhost")).toThrow(
      /"@example\.com", "localhost" are not domains/,
    );
    expect(() => parseApprovalDomains("https://example.com")).toThrow(/not a domain/);
    expect(() => parseApprovalDomains("-bad.example")).toThrow(/not a domain/);
  });
});
