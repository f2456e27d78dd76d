import ipaddr from "ipaddr.js";

// Names that reach the host itself or a cloud's instance metadata, whatever DNS says.
const FORBIDDEN_NAMES = new Set([
  "localhost",
  "metadata",
  "metadata.google.internal",
  "instance-data",
  "instance-data.ec2.internal",
]);
const FORBIDDEN_SUFFIXES = [".localhost", ".internal", ".local", ".localdomain", ".home.arpa"];

/**
 * Why an address must not be fetched on a user's behalf, or null when it is an ordinary public
 * unicast address. Only ipaddr.js's "unicast" range passes: loopback, private, link-local (cloud
 * metadata), unique-local, CGNAT, multicast, unspecified, broadcast, reserved and every IPv6 form
 * that embeds IPv4 (mapped, NAT64, 6to4, Teredo) are refused.
 */
export function forbiddenAddressReason(address: string): string | null {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address.replace(/^\[|\]$/g, ""));
  } catch {
    return "not an IP address";
  }
  const range = parsed.range();
  return range === "unicast" ? null : `${range} address`;
}

export function forbiddenHostnameReason(hostname: string): string | null {
  const host = hostname.toLowerCase().replace(/\.$/, "");
  if (FORBIDDEN_NAMES.has(host)) return `host '${host}' is reserved for the local machine or cloud metadata`;
  if (FORBIDDEN_SUFFIXES.some((s) => host.endsWith(s))) return `host '${host}' is a local or internal name`;
  return null;
}
