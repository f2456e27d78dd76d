import { describe, expect, it } from "vitest";
import { keyAllowsArea, type KeyRecord } from "./record.ts";

const key = (scopes: string[]) => ({ scopes }) as KeyRecord;

describe("keyAllowsArea", () => {
  it("treats operator scopes as powers, not areas: a key with only them reaches every area", () => {
    expect(keyAllowsArea(key([]), "llm")).toBe(true);
    expect(keyAllowsArea(key(["ollama:admin"]), "llm")).toBe(true);
    expect(keyAllowsArea(key(["data", "ollama:admin"]), "llm")).toBe(false);
    expect(keyAllowsArea(key(["data", "ollama:admin"]), "data")).toBe(true);
    expect(keyAllowsArea(key(["data"]), "account")).toBe(true);
  });
});
