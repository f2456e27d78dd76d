/**
 * Header server.ts sets on every portal request to the connection's address, replacing whatever the
 * client sent, so route handlers (which never see the socket) can limit per client.
 */
export const CLIENT_ADDRESS_HEADER = "x-gateway-client-address";

type Window = { limit: number; windowMs: number };

/** Sign-in links per email address and per client address: enough for typos, too few to mail-bomb anyone. */
export const SIGN_IN_LIMITS = {
  perAddress: { limit: 5, windowMs: 15 * 60_000 },
  perClient: { limit: 20, windowMs: 60 * 60_000 },
} as const satisfies Record<string, Window>;

export type SignInRefusal = { message: string; retryAfterSeconds: number };

export type SignInLimiter = {
  /**
   * Counts a sign-in link request for `address` (as normalizeSignInAddress gives it: the address the link
   * goes to) from `client`; null when it may go out, otherwise why not and when to try again.
   */
  admit(address: string, client: string, now?: number): SignInRefusal | null;
};

const minutes = (ms: number) => `${Math.round(ms / 60_000)} minutes`;

/**
 * Sliding-window counts kept in this process (sign-in is rare next to API traffic, and a restart
 * forgetting them costs little). At most `maxTracked` addresses and clients are remembered, the
 * least recently seen forgotten first, so a flood of made-up addresses cannot grow memory.
 */
export function createSignInLimiter(
  limits: { perAddress: Window; perClient: Window } = SIGN_IN_LIMITS,
  maxTracked = 10_000,
): SignInLimiter {
  const hits = new Map<string, number[]>();

  const recent = (key: string, windowMs: number, now: number): number[] => {
    const kept = (hits.get(key) ?? []).filter((t) => t > now - windowMs);
    // Re-inserted so the map's order is least recently seen first.
    hits.delete(key);
    hits.set(key, kept);
    return kept;
  };

  return {
    admit(to, client, now = Date.now()) {
      const address = recent(`address:${to}`, limits.perAddress.windowMs, now);
      const fromClient = recent(`client:${client}`, limits.perClient.windowMs, now);
      const refuse = (times: number[], w: Window, message: string): SignInRefusal => ({
        message,
        retryAfterSeconds: Math.max(1, Math.ceil((times[0]! + w.windowMs - now) / 1000)),
      });
      if (address.length >= limits.perAddress.limit) {
        const w = limits.perAddress;
        return refuse(
          address,
          w,
          `Too many sign-in links for this address: ${w.limit} in ${minutes(w.windowMs)} at most. Use the last link sent, or try again later.`,
        );
      }
      if (fromClient.length >= limits.perClient.limit) {
        const w = limits.perClient;
        return refuse(
          fromClient,
          w,
          `Too many sign-in links from your network: ${w.limit} in ${minutes(w.windowMs)} at most. Try again later.`,
        );
      }
      address.push(now);
      fromClient.push(now);
      while (hits.size > maxTracked) hits.delete(hits.keys().next().value!);
      return null;
    },
  };
}
