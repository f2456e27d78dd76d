import { describe, expect, it } from "vitest";
import { approvalSummary, pendingNextSteps, requestIntro } from "./approval-text.ts";

const domains = { mode: "domains" as const, domains: ["example.com", "example.org", "uni.example"] };

describe("what the portal says about approval", () => {
  it("sums the policy up for anyone", () => {
    expect(approvalSummary({ mode: "manual" })).toBe(
      "An operator reviews the request; your keys page shows the decision.",
    );
    expect(approvalSummary({ mode: "auto" })).toMatch(/approves requests at once/);
    expect(approvalSummary(domains)).toBe(
      "Requests from addresses at example.com, example.org or uni.example are approved at once. An operator reviews any other; your keys page shows the decision.",
    );
  });

  it("tells a signed-in person what sending the form will do for them", () => {
    expect(requestIntro(domains, "ada@example.org")).toMatch(/^This server issues your key at once/);
    expect(requestIntro({ mode: "auto" }, null)).toMatch(/^This server issues your key at once/);
    expect(requestIntro({ mode: "manual" }, "ada@example.org")).toMatch(/^An operator reviews each request/);
    expect(requestIntro(domains, "ada@sub.example.org")).toBe(
      "Keys are issued at once to addresses at example.com, example.org or uni.example; yours (ada@sub.example.org) is not one of them, so an operator reviews your request. Once it is approved, your keys page offers to create the key and shows it once.",
    );
    expect(requestIntro(domains, null)).toMatch(/your account has no email address, so an operator reviews/);
  });

  it("says who decides on a pending request and whether mail will tell them", () => {
    expect(pendingNextSteps({ email: "ada@x.test", mailConfigured: true, operatorsConfigured: true })).toBe(
      "An operator of this server decides on it. You will get an email at ada@x.test with the decision, which also shows on your keys page. Once it is approved, the key is created there and shown once.",
    );
    expect(pendingNextSteps({ email: "ada@x.test", mailConfigured: false, operatorsConfigured: true })).toMatch(
      /This server sends no mail: the decision shows on your keys page/,
    );
    expect(pendingNextSteps({ email: null, mailConfigured: false, operatorsConfigured: false })).toMatch(
      /^No operator is configured on this server yet \(ADMIN_EMAILS\)/,
    );
  });
});
