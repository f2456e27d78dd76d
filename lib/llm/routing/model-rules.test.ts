import { describe, expect, it } from "vitest";
import { GatewayError } from "../../errors.ts";
import { applyModelRules, matchesModelPattern } from "./model-rules.ts";

const deployment = (name: string, provider: string, modelId: string) => ({ name, entry: { name: provider }, modelId });
const gpt = deployment("openai-primary", "openai", "gpt-4.1");
const claude = deployment("claude", "anthropic", "claude-sonnet-4-5");
const mini = deployment("mini", "openai", "gpt-4.1-mini");

function refusal(fn: () => unknown): { status: number; message: string } {
  try {
    fn();
  } catch (err) {
    if (err instanceof GatewayError) return { status: err.status, message: err.message };
    throw err;
  }
  throw new Error("not refused");
}

describe("matchesModelPattern", () => {
  it("matches exact names and globs with *", () => {
    expect(matchesModelPattern("smart", "smart")).toBe(true);
    expect(matchesModelPattern("smart", "smarter")).toBe(false);
    expect(matchesModelPattern("openai/*", "openai/gpt-4.1")).toBe(true);
    expect(matchesModelPattern("openai/*", "anthropic/openai")).toBe(false);
    expect(matchesModelPattern("anthropic/claude-*", "anthropic/claude-sonnet-4-5")).toBe(true);
    expect(matchesModelPattern("anthropic/claude-*", "anthropic/claude")).toBe(false);
    expect(matchesModelPattern("*/gpt-*-mini", "openai/gpt-4.1-mini")).toBe(true);
    expect(matchesModelPattern("*", "anything/at-all")).toBe(true);
    expect(matchesModelPattern("a*b*c", "aXbYbZc")).toBe(true);
    expect(matchesModelPattern("a*b*c", "aXbYbZ")).toBe(false);
  });

  it("ignores letter case, so a deny rule cannot be stepped round", () => {
    expect(matchesModelPattern("openai/gpt-4.1", "openai/GPT-4.1")).toBe(true);
    expect(matchesModelPattern("anthropic/claude-*", "anthropic/Claude-Opus")).toBe(true);
  });

  it("reads . ? + ( and the like as themselves", () => {
    expect(matchesModelPattern("openai/gpt-4.1", "openai/gpt-4x1")).toBe(false);
    expect(matchesModelPattern("x/(a+)?", "x/(a+)?")).toBe(true);
    expect(matchesModelPattern("x/a+", "x/aa")).toBe(false);
  });

  // A backtracking regular expression takes longer than any test timeout on this; the matcher, milliseconds.
  it("answers a hostile name against many stars", () => {
    expect(matchesModelPattern(`${"*a".repeat(90)}*b`, "a".repeat(4000))).toBe(false);
  });
});

describe("applyModelRules", () => {
  it("refuses a model the deny list names, naming the rule", () => {
    expect(refusal(() => applyModelRules("openai/gpt-4.1", [gpt], { allow: [], deny: ["openai/*"] }))).toEqual({
      status: 403,
      message: "model 'openai/gpt-4.1' is refused by this key's rule deny 'openai/*'",
    });
    expect(refusal(() => applyModelRules("smart", [gpt, claude], { allow: ["smart"], deny: ["smart"] })).message).toBe(
      "model 'smart' is refused by this key's rule deny 'smart'",
    );
  });

  it("drops an alias's denied deployments and keeps the rest in order", () => {
    expect(applyModelRules("smart", [gpt, claude, mini], { allow: [], deny: ["openai/*"] })).toEqual([claude]);
    expect(applyModelRules("smart", [gpt, claude, mini], { allow: [], deny: ["openai/gpt-4.1"] })).toEqual([
      claude,
      mini,
    ]);
  });

  it("refuses an alias every deployment of which is denied", () => {
    expect(refusal(() => applyModelRules("gpts", [gpt, mini], { allow: [], deny: ["*/gpt-*"] }))).toEqual({
      status: 403,
      message: "model 'gpts' is refused by this key's rule deny '*/gpt-*'",
    });
  });

  it("with an allow list, keeps a named model whole and narrows any other to its allowed deployments", () => {
    const rules = { allow: ["cheap", "anthropic/*"], deny: [] };
    expect(applyModelRules("cheap", [gpt, mini], rules)).toEqual([gpt, mini]);
    expect(applyModelRules("smart", [gpt, claude], rules)).toEqual([claude]);
    expect(applyModelRules("anthropic/claude-sonnet-4-5", [claude], rules)).toEqual([claude]);
  });

  it("refuses what the allow list leaves nothing of, naming the list", () => {
    expect(refusal(() => applyModelRules("smart", [gpt], { allow: ["cheap"], deny: [] }))).toEqual({
      status: 403,
      message: "model 'smart' is refused by this key's rule allow 'cheap'",
    });
    expect(
      refusal(() => applyModelRules("openai/gpt-4.1", [gpt], { allow: ["cheap", "anthropic/*"], deny: [] })).message,
    ).toBe("model 'openai/gpt-4.1' is refused by this key's rule allow 'cheap', 'anthropic/*'");
  });

  it("lets deny win over an allowed alias's deployments", () => {
    expect(applyModelRules("smart", [gpt, claude], { allow: ["smart"], deny: ["anthropic/*"] })).toEqual([gpt]);
    expect(
      refusal(() => applyModelRules("smart", [claude], { allow: ["smart", "anthropic/*"], deny: ["anthropic/*"] }))
        .message,
    ).toBe("model 'smart' is refused by this key's rule deny 'anthropic/*'");
  });

  it("leaves a key without rules' candidates alone", () => {
    const candidates = [gpt, claude];
    expect(applyModelRules("smart", candidates, { allow: [], deny: [] })).toBe(candidates);
  });
});
