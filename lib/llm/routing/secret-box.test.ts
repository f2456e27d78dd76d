import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../config.ts";
import { SealError, secretBoxFromEnv } from "./secret-box.ts";

const key = () => randomBytes(32).toString("base64");
const SECRET = "sk-live-0123456789abcdefXYZ";

describe("SecretBox", () => {
  const box = secretBoxFromEnv(`k1:${key()}`)!;

  it("opens what it sealed, and the sealed form shows neither the secret nor a fixed nonce", () => {
    const a = box.seal(SECRET, "owner-a/openai");
    const b = box.seal(SECRET, "owner-a/openai");
    expect(a).toMatch(/^v1\.k1\.[\w-]{16}\.[\w-]{22}\.[\w-]+$/);
    expect(a).not.toContain(SECRET);
    expect(a).not.toBe(b);
    expect(box.open(a, "owner-a/openai")).toBe(SECRET);
  });

  it("refuses a value under another context (owner or provider), or altered", () => {
    const sealed = box.seal(SECRET, "owner-a/openai");
    expect(() => box.open(sealed, "owner-b/openai")).toThrow(SealError);
    expect(() => box.open(sealed, "owner-a/anthropic")).toThrow(SealError);
    const parts = sealed.split(".");
    const flipped = Buffer.from(parts[4]!, "base64url");
    flipped[0]! ^= 1;
    parts[4] = flipped.toString("base64url");
    expect(() => box.open(parts.join("."), "owner-a/openai")).toThrow(SealError);
    expect(() => box.open("v2.k1.a.b.c", "owner-a/openai")).toThrow(SealError);
  });

  it("rotates: a new first key seals, the old one still opens, and a dropped key names itself", () => {
    const oldKey = key();
    const before = secretBoxFromEnv(`old:${oldKey}`)!;
    const sealedBefore = before.seal(SECRET, "ctx");
    const rotated = secretBoxFromEnv(`new:${key()}, old:${oldKey}`)!;
    expect(rotated.currentKeyId).toBe("new");
    expect(rotated.sealedWith(rotated.seal(SECRET, "ctx"))).toBe("new");
    expect(rotated.open(sealedBefore, "ctx")).toBe(SECRET);
    expect(rotated.sealedWith(sealedBefore)).toBe("old");
    expect(() => secretBoxFromEnv(`new:${key()}`)!.open(sealedBefore, "ctx")).toThrow(/key "old".*no longer lists/);
  });

  it("hides its keys from JSON and inspection", () => {
    const material = key();
    const b = secretBoxFromEnv(`k:${material}`)!;
    expect(JSON.stringify({ b })).not.toContain(material);
    expect(JSON.stringify({ b })).not.toContain(Buffer.from(material, "base64").toString("hex"));
  });
});

describe("secretBoxFromEnv", () => {
  it("is off when unset or empty", () => {
    expect(secretBoxFromEnv(undefined)).toBeUndefined();
    expect(secretBoxFromEnv(" , ")).toBeUndefined();
  });

  it.each([
    ["no id", key(), /entry 1: expected id:base64key/],
    ["a dot in the id", `a.b:${key()}`, /entry 1: expected id:base64key/],
    ["a short key", `k:${randomBytes(16).toString("base64")}`, /entry 1 \("k"\): the key must be 32 bytes/],
    ["not base64", `k:${"!".repeat(44)}`, /must be 32 bytes/],
    ["a repeated id", `k:${key()},k:${key()}`, /"k" is listed twice/],
  ])("refuses %s, without echoing a key", (_, value, message) => {
    expect(() => secretBoxFromEnv(value)).toThrow(message);
    try {
      secretBoxFromEnv(value);
    } catch (err) {
      const encoded = value.split(",")[0]!.split(":").pop()!;
      expect((err as Error).message).not.toContain(encoded);
    }
  });
});

describe("start-up", () => {
  it("stops on an invalid GATEWAY_SECRET_KEYS, and turns the feature on with a valid one", () => {
    expect(() => loadConfig({ GATEWAY_SECRET_KEYS: "k1:short" })).toThrow(
      /invalid configuration: GATEWAY_SECRET_KEYS entry 1 \("k1"\)/,
    );
    expect(loadConfig({}).secretBox).toBeUndefined();
    expect(loadConfig({ GATEWAY_SECRET_KEYS: `k1:${key()}` }).secretBox?.currentKeyId).toBe("k1");
  });
});
