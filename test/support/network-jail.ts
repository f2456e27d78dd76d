import net from "node:net";

type LookupCallback = (err: Error | null, address: string | Array<{ address: string }>, family?: number) => void;
type Lookup = (host: string, opts: object, cb: LookupCallback) => void;

const LOOPBACK = /^(127\.|::1$|::ffff:127\.|localhost$)/;

export type NetworkJail = {
  /** Every non-loopback address something tried to reach while the jail was on, in order. */
  dialled: string[];
  release(): void;
};

/**
 * Until released, any connection to a non-loopback address fails instead of leaving the machine, and
 * is recorded, so a test sees which address the code really dialled (a guard that broke must never
 * turn into traffic to a private or public network). Names are checked where their lookup lands.
 */
export function jailNetwork(): NetworkJail {
  const dialled: string[] = [];
  const original = net.Socket.prototype.connect;
  function jailedConnect(this: net.Socket, ...params: unknown[]) {
    // http.request and https.request hand connect their options already normalised, as an array in
    // the first argument; a plain socket.connect(options) or connect(port, host) does not.
    const args = Array.isArray(params[0]) ? (params[0] as unknown[]) : params;
    const first = args[0] as { host?: string; lookup?: Lookup } | number;
    if (typeof first === "object" && first.lookup) {
      const lookup = first.lookup;
      args[0] = {
        ...first,
        lookup: (host: string, opts: object, cb: LookupCallback) =>
          lookup(host, opts, (err, address, family) => {
            const outside = (Array.isArray(address) ? address.map((a) => a.address) : [address]).filter(
              (a) => !LOOPBACK.test(a),
            );
            if (!err && outside.length) {
              dialled.push(...outside);
              return cb(new Error(`test network jail: ${outside.join(", ")} refused`), address, family);
            }
            cb(err, address, family);
          }),
      };
    } else {
      const host = typeof first === "object" ? (first.host ?? "localhost") : String(args[1] ?? "localhost");
      if (!LOOPBACK.test(host)) {
        dialled.push(host);
        throw new Error(`test network jail: connection to ${host} refused`);
      }
    }
    return (original as (...a: unknown[]) => net.Socket).apply(this, params);
  }
  net.Socket.prototype.connect = jailedConnect as typeof net.Socket.prototype.connect;
  return { dialled, release: () => void (net.Socket.prototype.connect = original) };
}
