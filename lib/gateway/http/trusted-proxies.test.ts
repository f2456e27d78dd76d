import { describe, expect, it } from "vitest";
import { addressBucket, parseTrustedProxies, resolveClientAddress } from "./trusted-proxies.ts";

describe("client address and its rate-limit bucket", () => {
  const trusted = parseTrustedProxies("10.0.0.0/8, 192.0.2.7, fd00::/8");

  it("believes nobody's X-Forwarded-For by default", () => {
    expect(resolveClientAddress("203.0.113.9", "198.51.100.1", [])).toBe("203.0.113.9");
    expect(resolveClientAddress("::ffff:203.0.113.9", undefined, [])).toBe("203.0.113.9");
  });

  it("believes a trusted proxy, reading from the right and skipping trusted hops", () => {
    expect(resolveClientAddress("10.1.2.3", "198.51.100.1", trusted)).toBe("198.51.100.1");
    expect(resolveClientAddress("10.1.2.3", "1.1.1.1, 198.51.100.1, 192.0.2.7", trusted)).toBe("198.51.100.1");
    expect(resolveClientAddress("fd00::5", "2001:db8::1", trusted)).toBe("2001:db8::1");
  });

  it("ignores X-Forwarded-For from an untrusted peer, and stops at garbage", () => {
    expect(resolveClientAddress("203.0.113.9", "198.51.100.1", trusted)).toBe("203.0.113.9");
    expect(resolveClientAddress("10.1.2.3", "198.51.100.1, not-an-ip", trusted)).toBe("10.1.2.3");
  });

  it("reads an entry a proxy wrote with the client's port as that client", () => {
    expect(resolveClientAddress("10.1.2.3", "198.51.100.1:51234", trusted)).toBe("198.51.100.1");
    expect(resolveClientAddress("10.1.2.3", "[2001:db8::1]:443", trusted)).toBe("2001:db8::1");
    expect(resolveClientAddress("10.1.2.3", "1.1.1.1, 198.51.100.1:80, 192.0.2.7:9000", trusted)).toBe("198.51.100.1");
    expect(resolveClientAddress("10.1.2.3", "198.51.100.1:99999", trusted)).toBe("10.1.2.3");
  });

  it("refuses a bad TRUST_PROXY entry by name", () => {
    expect(() => parseTrustedProxies("10.0.0.0/8, proxy.example")).toThrow(/'proxy.example'/);
    expect(() => parseTrustedProxies("10.0.0.0/99")).toThrow(/'10.0.0.0\/99'/);
    expect(parseTrustedProxies(" ")).toEqual([]);
  });

  it("buckets IPv6 by /64 and IPv4 by address", () => {
    expect(addressBucket("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2::/64");
    expect(addressBucket("2001:db8:1:2:ffff:ffff:ffff:ffff")).toBe("2001:db8:1:2::/64");
    expect(addressBucket("2001:db8:1:3::1")).toBe("2001:db8:1:3::/64");
    expect(addressBucket("198.51.100.1")).toBe("198.51.100.1");
    expect(addressBucket("::ffff:198.51.100.1")).toBe("198.51.100.1");
    expect(addressBucket("unknown")).toBe("unknown");
  });
});
