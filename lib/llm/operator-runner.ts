import net from "node:net";
import os from "node:os";

export type Endpoint = { address: string; port: number };

const family = (address: string): "ipv4" | "ipv6" => (net.isIPv6(address) ? "ipv6" : "ipv4");

/** Addresses that reach this machine whatever interface a runner listens on: loopback, unspecified and every local interface's. */
function localMachine(interfaceAddresses: readonly string[]): net.BlockList {
  const list = new net.BlockList();
  list.addSubnet("127.0.0.0", 8, "ipv4");
  list.addAddress("0.0.0.0", "ipv4");
  list.addAddress("::1", "ipv6");
  list.addAddress("::", "ipv6");
  for (const address of interfaceAddresses) list.addAddress(address, family(address));
  return list;
}

let thisMachine: net.BlockList | undefined;
/** Built once: the interfaces a gateway runs with do not change under it in practice. */
export function thisMachineAddresses(): net.BlockList {
  thisMachine ??= localMachine(
    Object.values(os.networkInterfaces()).flatMap((list) => (list ?? []).map((i) => i.address.replace(/%.*$/, ""))),
  );
  return thisMachine;
}

/**
 * Whether a key's registered host reaches the operator's runner under another name: a second DNS
 * name, another spelling of its address (::ffff:127.0.0.1 for 127.0.0.1), or, when the operator's
 * runner is on this machine, any other address of this machine on the same port. Such a host must
 * stay read-only to keys, like the operator's runner itself.
 */
export function isOperatorRunner(
  candidate: Endpoint,
  operator: { addresses: readonly string[]; port: number },
  local = thisMachineAddresses(),
): boolean {
  if (candidate.port !== operator.port || !net.isIP(candidate.address)) return false;
  const same = new net.BlockList();
  for (const address of operator.addresses) if (net.isIP(address)) same.addAddress(address, family(address));
  if (same.check(candidate.address, family(candidate.address))) return true;
  const operatorIsLocal = operator.addresses.some((a) => net.isIP(a) && local.check(a, family(a)));
  return operatorIsLocal && local.check(candidate.address, family(candidate.address));
}
