import ipaddr from "ipaddr.js";

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** The proxies whose X-Forwarded-For is believed (TRUST_PROXY); empty means nobody's is. */
export type TrustedProxies = readonly Range[];

function parseAddress(value: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  const bare = value.trim().replace(/^\[|\]$/g, "");
  if (!ipaddr.isValid(bare)) return undefined;
  const parsed = ipaddr.parse(bare);
  // A v4 peer on a dual-stack socket shows up as ::ffff:a.b.c.d; compare it as the v4 address it is.
  return parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).isIPv4MappedAddress()
    ? (parsed as ipaddr.IPv6).toIPv4Address()
    : parsed;
}

/**
 * One X-Forwarded-For entry. Some proxies (Azure's gateways, for one) write the client's port too:
 * `203.0.113.7:51234` or `[2001:db8::7]:51234`; the port is not part of who the client is.
 */
function parseHop(value: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  const hop = value.trim();
  const withPort = /^(\d{1,3}(?:\.\d{1,3}){3}):(\d{1,5})$/.exec(hop) ?? /^\[([^\]]+)\]:(\d{1,5})$/.exec(hop);
  if (!withPort) return parseAddress(hop);
  return Number(withPort[2]) <= 65_535 ? parseAddress(withPort[1]!) : undefined;
}

/** Parses TRUST_PROXY: comma-separated addresses or CIDR ranges. Throws naming the bad entry. */
export function parseTrustedProxies(value: string | undefined): TrustedProxies {
  if (!value?.trim()) return [];
  return value
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)
    .map((entry): Range => {
      if (entry.includes("/")) {
        try {
          return ipaddr.parseCIDR(entry);
        } catch {
          throw new Error(`TRUST_PROXY: '${entry}' is not an address or CIDR range`);
        }
      }
      const address = parseAddress(entry);
      if (!address) throw new Error(`TRUST_PROXY: '${entry}' is not an address or CIDR range`);
      return [address, address.kind() === "ipv4" ? 32 : 128];
    });
}

function isTrusted(address: ipaddr.IPv4 | ipaddr.IPv6, trusted: TrustedProxies): boolean {
  return trusted.some(([range, bits]) => range.kind() === address.kind() && address.match(range, bits));
}

/**
 * The client's address: the socket's peer, unless that peer is a trusted proxy; then X-Forwarded-For
 * is read from the right, skipping trusted hops, and the first address no trusted proxy vouches for
 * is the client. Entries left of it were written by the client itself and are never believed.
 */
export function resolveClientAddress(
  socketAddress: string | undefined,
  forwardedFor: string | undefined,
  trusted: TrustedProxies,
): string {
  const peer = socketAddress ? parseAddress(socketAddress) : undefined;
  if (!peer) return socketAddress ?? "unknown";
  if (!forwardedFor || !isTrusted(peer, trusted)) return peer.toString();
  let client = peer;
  for (const hop of forwardedFor.split(",").reverse()) {
    const address = parseHop(hop);
    // A garbled entry was written by someone untrusted; the last trusted hop is all we know.
    if (!address) break;
    client = address;
    if (!isTrusted(address, trusted)) break;
  }
  return client.toString();
}

/**
 * The rate-limit bucket of an address: an IPv4 address alone, an IPv6 address by its /64 (one
 * subscriber's allocation: a client holds billions of addresses inside it, so per-address limits on
 * IPv6 limit nothing).
 */
export function addressBucket(address: string): string {
  const parsed = parseAddress(address);
  if (!parsed) return address;
  if (parsed.kind() === "ipv4") return parsed.toString();
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 4).concat([0, 0, 0, 0]);
  return `${new ipaddr.IPv6(parts).toString()}/64`;
}
