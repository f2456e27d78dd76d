import net from "node:net";
import { describe, expect, it } from "vitest";
import { isOperatorRunner } from "./operator-runner.ts";

const local = new net.BlockList();
local.addSubnet("127.0.0.0", 8, "ipv4");
local.addAddress("::1", "ipv6");
local.addAddress("0.0.0.0", "ipv4");
local.addAddress("192.168.1.20", "ipv4");

describe("isOperatorRunner", () => {
  const loopbackRunner = { addresses: ["127.0.0.1"], port: 11434 };

  it("sees the operator's runner behind another spelling of its address", () => {
    expect(isOperatorRunner({ address: "127.0.0.1", port: 11434 }, loopbackRunner, local)).toBe(true);
    expect(isOperatorRunner({ address: "::ffff:127.0.0.1", port: 11434 }, loopbackRunner, local)).toBe(true);
    expect(isOperatorRunner({ address: "::ffff:7f00:1", port: 11434 }, loopbackRunner, local)).toBe(true);
  });

  it("sees another address of this machine when the operator's runner is local", () => {
    expect(isOperatorRunner({ address: "127.0.0.2", port: 11434 }, loopbackRunner, local)).toBe(true);
    expect(isOperatorRunner({ address: "::1", port: 11434 }, loopbackRunner, local)).toBe(true);
    expect(isOperatorRunner({ address: "192.168.1.20", port: 11434 }, loopbackRunner, local)).toBe(true);
  });

  it("sees a public runner reached through a second name (same address)", () => {
    const publicRunner = { addresses: ["203.0.113.5", "2001:db8::5"], port: 443 };
    expect(isOperatorRunner({ address: "203.0.113.5", port: 443 }, publicRunner, local)).toBe(true);
    expect(isOperatorRunner({ address: "2001:0db8:0:0:0:0:0:5", port: 443 }, publicRunner, local)).toBe(true);
    expect(isOperatorRunner({ address: "127.0.0.1", port: 443 }, publicRunner, local)).toBe(false);
  });

  it("leaves other hosts and other ports alone", () => {
    expect(isOperatorRunner({ address: "127.0.0.1", port: 11435 }, loopbackRunner, local)).toBe(false);
    expect(isOperatorRunner({ address: "10.0.0.7", port: 11434 }, loopbackRunner, local)).toBe(false);
    expect(
      isOperatorRunner({ address: "203.0.113.9", port: 11434 }, { addresses: ["203.0.113.5"], port: 11434 }, local),
    ).toBe(false);
  });
});
