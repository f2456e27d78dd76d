import { describe, expect, it } from "vitest";
import { areasText, limitSourceText, modelRulesText } from "./enforced-limits.ts";

describe("the enforced terms in words", () => {
  it("names the setting a default comes from", () => {
    expect(limitSourceText("default", "day")).toBe("service default, LIMIT_DAY");
    expect(limitSourceText("console", "minute")).toBe("console default, CONSOLE_LIMIT_MINUTE");
    expect(limitSourceText("key", "concurrency")).toBe("set for this key");
  });

  it("lists the areas a key reaches, every area when it names none, then any operator powers", () => {
    expect(areasText({ value: ["aac", "llm"], source: "console" })).toBe("aac, llm");
    expect(areasText({ value: [], source: "key" })).toBe("every area");
    expect(areasText({ value: ["ollama:admin"], source: "key" })).toBe("every area, and ollama:admin");
    expect(areasText({ value: ["data", "llm", "ollama:admin"], source: "key" })).toBe("data, llm, and ollama:admin");
  });

  it("says which models a key may call: any, only its allow list, never its deny list", () => {
    expect(modelRulesText({ allow: [], deny: [] })).toBe("any model");
    expect(modelRulesText({ allow: ["cheap", "anthropic/*"], deny: [] })).toBe("only cheap, anthropic/*");
    expect(modelRulesText({ allow: [], deny: ["openai/*"] })).toBe("any model, never openai/*");
    expect(modelRulesText({ allow: ["smart"], deny: ["openai/*"] })).toBe("only smart, never openai/*");
  });
});
