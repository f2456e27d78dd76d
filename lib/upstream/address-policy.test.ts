import { describe, expect, it } from "vitest";
import { forbiddenAddressReason, forbiddenHostnameReason } from "./address-policy.ts";

describe("forbiddenAddressReason", () => {
  it("lets ordinary public unicast addresses through", () => {
    for (const a of ["8.8.8.8", "1.1.1.1", "93.184.216.34", "2606:4700:4700::1111"])
      expect(forbiddenAddressReason(a), a).toBeNull();
  });

  it("names the range of every address that is not public unicast", () => {
    const cases: Array<[string, string]> = [
      ["127.0.0.1", "loopback"],
      ["10.0.0.1", "private"],
      ["172.31.255.255", "private"],
      ["192.168.0.1", "private"],
      ["169.254.169.254", "linkLocal"],
      ["100.64.0.1", "carrierGradeNat"],
      ["0.0.0.0", "unspecified"],
      ["224.0.0.1", "multicast"],
      ["255.255.255.255", "broadcast"],
      ["::1", "loopback"],
      ["[::1]", "loopback"],
      ["fd12::1", "uniqueLocal"],
      ["fe80::1", "linkLocal"],
      ["::ffff:127.0.0.1", "ipv4Mapped"],
      ["64:ff9b::a00:1", "rfc6052"],
      ["2002:a00:1::", "6to4"],
      ["2001:db8::1", "reserved"],
    ];
    for (const [address, range] of cases) expect(forbiddenAddressReason(address), address).toBe(`${range} address`);
    expect(forbiddenAddressReason("not-an-ip")).toBe("not an IP address");
  });
});

describe("forbiddenHostnameReason", () => {
  it("refuses local and metadata names in any case, with or without a trailing dot", () => {
    for (const h of [
      "localhost",
      "LOCALHOST.",
      "api.localhost",
      "metadata.google.internal",
      "metadata",
      "nas.local",
      "x.home.arpa",
    ]) {
      expect(forbiddenHostnameReason(h), h).not.toBeNull();
    }
    expect(forbiddenHostnameReason("example.com")).toBeNull();
  });
});
