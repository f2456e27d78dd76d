import { describe, expect, it } from "vitest";
import { actionText, actorText, detailText, targetText, type AuditNames } from "./audit-text.ts";

const names: AuditNames = {
  people: new Map([
    ["u1", "dev@example.test"],
    ["u2", null],
  ]),
  keys: new Map([
    ["key_a", { name: "Journey key", prefix: "sk_abcdefgh" }],
    ["key_b", { name: "Journey key", prefix: "sk_zyxwvuts" }],
  ]),
  requests: new Map([["kr_1", "Journey key"]]),
};

describe("audit entries in words", () => {
  it("names people by their address, and says what a non-person actor is", () => {
    expect(actorText("user:u1", names)).toBe("dev@example.test");
    expect(actorText("user:u2", names)).toBe("an account without an address (u2)");
    expect(actorText("ops@example.test", names)).toBe("ops@example.test");
    expect(actorText("auto-approve:example.org", names)).toBe("the approval policy (domain example.org)");
    expect(actorText("cli", names)).toMatch(/operator CLI/);
    expect(actorText("migration:0009_key_names", names)).toBe("database migration 0009_key_names");
  });

  it("names keys and requests by name, keeping an unknown id as it is", () => {
    expect(targetText("key_a", names)).toBe("key “Journey key” (sk_abcdefgh…)");
    expect(targetText("kr_1", names)).toBe("request for “Journey key”");
    expect(targetText("kr_gone", names)).toBe("request kr_gone");
    expect(targetText(null, names)).toBe("—");
    expect(actionText("key.limits")).toBe("Key limits changed");
    expect(actionText("something.new")).toBe("something.new");
  });

  it("writes each action's detail as a sentence, only the limits that changed", () => {
    expect(
      detailText(
        "key.limits",
        { from: { day: null, minute: null, concurrency: 4 }, to: { day: 5000, minute: null, concurrency: 4 } },
        names,
      ),
    ).toBe("per day default → 5,000");
    expect(
      detailText(
        "key.limits",
        {
          from: { day: null, minute: null, concurrency: null, tokensMinute: null, tokensDay: 9000 },
          to: { day: null, minute: null, concurrency: null, tokensMinute: 2000, tokensDay: 9000 },
        },
        names,
      ),
    ).toBe("tokens a minute none → 2,000");
    expect(
      detailText(
        "key.rotate",
        { replacement: "key_b", prefix: "sk_zyxwvuts", old_expires_at: "2026-11-28T10:00:00.000Z", grace_hours: 24 },
        names,
      ),
    ).toBe("replaced by “Journey key” (sk_zyxwvuts…); old key valid until 2026-11-28 10:00 UTC (24 h grace)");
    expect(
      detailText(
        "key_request.create",
        { name: "Journey key", use_type: "research", scopes: ["llm", "data"], expires_at: null },
        names,
      ),
    ).toBe("“Journey key”, research use, areas llm, data, no expiry");
    expect(detailText("key.scopes", { from: [], to: ["llm"] }, names)).toBe("every area → areas llm");
    expect(detailText("key.budget", { metric: "cost", limit: 12.5, hard_stop: true }, names)).toBe(
      "$12.50 a month, requests refused once it is used up",
    );
    expect(detailText("key.budget", { metric: "requests", limit: 5000, hard_stop: false }, names)).toBe(
      "5,000 requests a month, alerts only, never refused",
    );
    expect(actionText("key.budget")).toBe("Key budget set");
    expect(
      detailText(
        "key.update",
        {
          from: { scopes: ["keys:admin", "llm"], grantedScopes: ["llm"], expiresAt: null },
          to: { scopes: ["data", "keys:admin"], grantedScopes: ["data"], expiresAt: "2027-01-01T00:00:00.000Z" },
        },
        names,
      ),
    ).toBe("areas llm → areas data; no expiry → last day 2026-12-31");
    expect(
      detailText("key.models", { from: { allow: [], deny: [] }, to: { allow: ["cheap"], deny: ["openai/*"] } }, names),
    ).toBe("any model → only cheap, never openai/*");
    expect(
      detailText(
        "key.cache",
        {
          from: { max_age: null, semantic: false, scope: "key" },
          to: { max_age: 3600, semantic: true, scope: "team" },
        },
        names,
      ),
    ).toBe(
      "only when a request asks (Cache-Control) → answers up to 1 h old, matched by meaning too, kept for its team's keys",
    );
    expect(detailText("key.guardrails", { from: null, to: "mask" }, names)).toBe("none → mask");
    expect(detailText("team.guardrails", { guardrails: "strict" }, names)).toBe("strict");
    expect(detailText("team.guardrails", { guardrails: null }, names)).toBe("none");
    expect(detailText("key_request.approve", { note: "Enjoy" }, names)).toBe("note: “Enjoy”");
    expect(detailText("key.create", { name: "Portal consoles", prefix: "sk_q", kind: "console" }, names)).toBe(
      "“Portal consoles”, sk_q…, the portal's console key",
    );
    // Named once: by the target when the key is known.
    expect(
      detailText("key.create", { name: "Journey key", prefix: "sk_abcdefgh", request: "kr_1" }, names, "key_a"),
    ).toBe("picked up from its approved request");
    expect(detailText("key.revoke", null, names)).toBe("");
  });

  it("gives an action it does not know its fields as words, never JSON", () => {
    const text = detailText("thing.happened", { when_it: "now", parts: ["a", "b"], inner: { x: 1 } }, names);
    expect(text).toBe("when it now, parts a, b, inner x 1");
    expect(text).not.toMatch(/[{}"]/);
  });
});
