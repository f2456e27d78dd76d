import { describe, expect, it } from "vitest";
import { toPolicy } from "../../guardrails/policy.ts";
import { keyGuardrails, policyDoes } from "./guardrail-policy.ts";

const strict = toPolicy("strict", {
  checks: ["pii", "injection"],
  action: "block",
  pii: { kinds: ["card", "national_id"] },
  injection: { threshold: 0.7 },
});
const house = toPolicy("house", {
  checks: ["pii", "words", "length"],
  action: "redact",
  words: { terms: ["Project Falcon", "acme internal", "x"], profanity: true },
  length: { max_chars: 100_000 },
});
/** A level directory that knows one team, "Ops" (team_ops), naming `policy`. */
const levels = (policy?: string) => ({
  team: (id: string) =>
    id === "team_ops" ? { id, name: "Ops", organisation: { id: "org_1", name: "Acme" } } : undefined,
  teamGuardrails: (id: string) => (id === "team_ops" ? policy : undefined),
});
const routing = {
  aliases: new Map([
    ["private", { guardrails: "house" }],
    ["open", {}],
  ]) as never,
  guardrails: new Map([
    ["strict", strict],
    ["house", house],
  ]),
};

describe("a guardrail policy in words", () => {
  it("says its checks and action, with counts of what it lists and never the terms", () => {
    expect(policyDoes(strict)).toBe(
      "Blocks personal data (card, national id) and likely prompt injections (score 0.7 or more).",
    );
    const text = policyDoes(house);
    // Only personal data and listed words can be redacted: the length check flags.
    expect(text).toBe(
      "Redacts personal data of every kind and 3 listed terms and profanity; flags prompts over 100,000 characters.",
    );
    expect(text).not.toMatch(/falcon|acme/i);
    expect(policyDoes(toPolicy("one", { checks: ["words"], action: "flag", words: { terms: ["a"] } }))).toBe(
      "Flags 1 listed term.",
    );
  });
});

describe("the policy a key is under", () => {
  it("is its own, else its team's, else the aliases' that name one, else none", () => {
    const inOps = { guardrails: null, team_id: "team_ops" };
    expect(keyGuardrails({ ...inOps, guardrails: "strict" }, levels("house"), routing)).toEqual({
      source: "key",
      name: "strict",
      does: policyDoes(strict),
    });
    expect(keyGuardrails(inOps, levels("house"), routing)).toEqual({
      source: "team",
      team: "Ops",
      name: "house",
      does: policyDoes(house),
    });
    expect(keyGuardrails(inOps, levels(), routing)).toEqual({
      source: "alias",
      aliases: [{ alias: "private", name: "house", does: policyDoes(house) }],
    });
    const personal = { guardrails: null, team_id: null };
    expect(keyGuardrails(personal, levels("house"), { ...routing, aliases: new Map() })).toEqual({ source: "none" });
  });

  it("names a policy the routing file no longer declares, with nothing said of what it does", () => {
    expect(keyGuardrails({ guardrails: "gone", team_id: null }, levels(), routing)).toEqual({
      source: "key",
      name: "gone",
      does: null,
    });
  });
});
