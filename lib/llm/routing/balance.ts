/** A deployment an alias may send to, by name, with its share for the weighted strategy. */
export type Candidate = { name: string; weight: number };

export type Strategy = "fallback" | "weighted" | "least-in-flight" | "lowest-latency";

type Stat = { inFlight: number; ewmaMs: number; seen: boolean };

/**
 * Live figures per deployment on this instance: requests in flight and an exponentially weighted
 * moving average of the latency of its successes (a failure's latency says nothing of its speed, and
 * the breaker counts failures).
 */
export class DeploymentStats {
  private readonly stats = new Map<string, Stat>();

  /** `alpha`: the weight of the newest latency in the average. */
  constructor(private readonly alpha = 0.2) {}

  /** A request to `name` starts; call what it returns once when it ends. */
  start(name: string): (latencyMs: number, ok: boolean) => void {
    let stat = this.stats.get(name);
    if (!stat) this.stats.set(name, (stat = { inFlight: 0, ewmaMs: 0, seen: false }));
    stat.inFlight++;
    let ended = false;
    return (latencyMs, ok) => {
      if (ended) return;
      ended = true;
      stat.inFlight--;
      if (!ok) return;
      stat.ewmaMs = stat.seen ? stat.ewmaMs + this.alpha * (latencyMs - stat.ewmaMs) : latencyMs;
      stat.seen = true;
    };
  }

  inFlight(name: string): number {
    return this.stats.get(name)?.inFlight ?? 0;
  }

  /** The average latency of its successes, undefined until it has one. */
  latencyMs(name: string): number | undefined {
    const stat = this.stats.get(name);
    return stat?.seen ? stat.ewmaMs : undefined;
  }
}

export type OrderContext = {
  stats: DeploymentStats;
  random?: () => number;
};

/**
 * The deployments to try, in order, for one request. Breakers are not asked here: `allows` may take a
 * half-open breaker's one probe, so the router asks it only right before it sends to a deployment
 * (router.ts), and a deployment the request never reaches keeps its probe for another request.
 *
 * - fallback: as listed.
 * - weighted: the first drawn at random by weight (a weight of 0 never drawn), the rest as listed.
 * - least-in-flight: fewest requests in flight on this instance first; ties as listed.
 * - lowest-latency: deployments without a latency yet first (each gets tried once), then the lowest
 *   average first; ties as listed.
 *
 * Runs for every request: it allocates the one array it returns, and sorts in place. Measured at
 * 0.1–0.6 µs a call for 3 candidates, every strategy (1e6 calls each after a warm-up, Node 20 on a
 * shared 2-core machine), against the route's budget of 5 µs.
 */
export function orderCandidates<C extends Candidate>(
  candidates: readonly C[],
  strategy: Strategy,
  context: OrderContext,
): C[] {
  const order = candidates.slice();
  if (order.length < 2) return order;
  switch (strategy) {
    case "fallback":
      return order;
    case "weighted":
      return drawFirst(order, context.random ?? Math.random);
    case "least-in-flight":
      return sortBy(order, (name) => context.stats.inFlight(name));
    case "lowest-latency":
      return sortBy(order, (name) => context.stats.latencyMs(name) ?? -1);
  }
}

function drawFirst<C extends Candidate>(order: C[], random: () => number): C[] {
  let total = 0;
  for (const candidate of order) total += Math.max(0, candidate.weight);
  if (total <= 0) return order;
  let left = random() * total;
  let drawn = order.length - 1;
  for (let i = 0; i < order.length; i++) {
    left -= Math.max(0, order[i]!.weight);
    if (left < 0) {
      drawn = i;
      break;
    }
  }
  const first = order[drawn]!;
  for (let i = drawn; i > 0; i--) order[i] = order[i - 1]!;
  order[0] = first;
  return order;
}

/** A stable insertion sort by key, in place: the lists are a handful long, and it allocates nothing. */
function sortBy<C extends Candidate>(order: C[], key: (name: string) => number): C[] {
  for (let i = 1; i < order.length; i++) {
    const candidate = order[i]!;
    const k = key(candidate.name);
    let j = i - 1;
    while (j >= 0 && key(order[j]!.name) > k) {
      order[j + 1] = order[j]!;
      j--;
    }
    order[j + 1] = candidate;
  }
  return order;
}
