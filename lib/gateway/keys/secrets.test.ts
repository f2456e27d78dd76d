import { describe, expect, it } from "vitest";
import { encodeBase62, generateKey, hashKey, looksLikeKey } from "./secrets.ts";

describe("generateKey", () => {
  it("makes sk_ keys of 32 random bytes in base62 with a stored hash and display prefix", () => {
    const k = generateKey();
    expect(k.key).toMatch(/^sk_[0-9A-Za-z]{43}$/);
    expect(k.hash).toBe(hashKey(k.key));
    expect(k.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(k.key.startsWith(k.prefix)).toBe(true);
    expect(k.prefix).toHaveLength(11);
    expect(looksLikeKey(k.key)).toBe(true);
  });

  it("hashes as hex SHA-256, the form stored for every existing key", () => {
    expect(hashKey("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });

  it("never repeats", () => {
    const keys = new Set(Array.from({ length: 1000 }, () => generateKey().key));
    expect(keys.size).toBe(1000);
  });

  it("encodes the largest 32-byte value without overflow", () => {
    expect(encodeBase62(new Uint8Array(32).fill(255), 43)).toMatch(/^[1-9A-Za-z][0-9A-Za-z]{42}$/);
    expect(encodeBase62(new Uint8Array([1, 0]), 3)).toBe("048");
  });

  it("rejects strings that are not keys", () => {
    expect(looksLikeKey("sk_short")).toBe(false);
    expect(looksLikeKey(`pk_${"a".repeat(43)}`)).toBe(false);
    expect(looksLikeKey(`sk_${"a".repeat(42)}!`)).toBe(false);
  });
});
