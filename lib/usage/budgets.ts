import type { Database } from "../db/client.ts";
import type { UsageEventInput } from "./usage-event.ts";
import { estimateCost, featureCost, loadPrices } from "./prices.ts";

export const BUDGET_METRICS = ["requests", "tokens", "cost"] as const;
export type BudgetMetric = (typeof BUDGET_METRICS)[number];

/** A key's monthly budget (UTC calendar month) in its metric; `hardStop` refuses requests once it is used up. */
export type Budget = { metric: BudgetMetric; limit: number; hardStop: boolean };

/** The most an owner may set per metric (BUDGET_MAX_REQUESTS, BUDGET_MAX_TOKENS, BUDGET_MAX_COST_USD). */
export type BudgetCeilings = Record<BudgetMetric, number>;

/** Alerts go out when this share (percent) of a budget is used, each once per key and month. */
export const ALERT_THRESHOLDS = [80, 100] as const;

/** A budget alert to deliver: the key, the month (YYYY-MM), the threshold crossed and where the key stands. */
export type BudgetAlert = {
  /** The budget's rotation lineage: its first key's id (budgets and their alerts follow a key's rotations). */
  keyId: string;
  month: string;
  threshold: number;
  budget: Budget;
  used: number;
};

/**
 * What one request adds to a budget. Requests refused with 429 (rate limits, the budget's own stop) do not
 * count against a requests budget, so raising a budget frees what it says; tokens and estimated cost are
 * the provider's reported tokens, priced by the one price table, and the cost of the features it reported
 * using beyond tokens (web searches...) where they have a price.
 */
export function amountOf(
  metric: BudgetMetric,
  e: Pick<UsageEventInput, "status" | "provider" | "model" | "promptTokens" | "completionTokens" | "features">,
): number {
  const prompt = e.promptTokens ?? 0;
  const completion = e.completionTokens ?? 0;
  if (metric === "requests") return e.status === 429 ? 0 : 1;
  if (metric === "tokens") return prompt + completion;
  if (!e.provider) return 0;
  return (estimateCost(e.provider, e.model ?? "", prompt, completion) ?? 0) + featureCost(e.provider, e.features);
}

/** The UTC month of an instant, YYYY-MM. */
export const monthOf = (at: Date | number): string => new Date(at).toISOString().slice(0, 7);

/** Epoch ms of the first instant of the UTC month after `month` (YYYY-MM): when its budgets reset. */
export function monthEnd(month: string): number {
  const [y, m] = month.split("-").map(Number) as [number, number];
  return Date.UTC(y, m, 1);
}

/** Thresholds (percent) `used` has reached of `limit`, lowest first. */
export function thresholdsReached(used: number, limit: number): number[] {
  return ALERT_THRESHOLDS.filter((t) => used >= (limit * t) / 100);
}

/** A budget's refusal: the budget, what is used, and when it resets (epoch ms). */
export type BudgetRefusal = { budget: Budget; used: number; resetsAt: number };

/** Where a key stands this month, for the dashboard. */
export type BudgetStatus = { budget: Budget; month: string; used: number };

type Spent = { month: string; end: number; used: number };

export type BudgetTrackerOptions = {
  refreshMs: number;
  /** Delivers an alert (mail, or the log without SMTP); false or a throw means not delivered, tried again later. */
  deliver(alert: BudgetAlert): Promise<void>;
  onError(err: unknown): void;
};

/** The meter's side the tracker reads when it refreshes (see Meter.betweenWrites). */
export type MeterView = {
  pending(): UsageEventInput[];
  betweenWrites<T>(read: () => Promise<T>): Promise<T>;
};

/**
 * Per-key monthly budgets, kept in memory so the guard's check is one map lookup and nothing on the
 * request path waits for the database. Usage counts in as the meter records it (`record`); a timer
 * reloads the budgets and this month's totals from the rollups (other instances' requests included), so
 * several instances agree within `refreshMs`. Alerts are sent off the request path, each once per key,
 * month and threshold (a row in budget_alerts decides, across instances).
 */
export class BudgetTracker {
  /** Budgets and this month's use per rotation lineage (its first key's id): a key and its replacements share one. */
  private budgets = new Map<string, Budget>();
  private spent = new Map<string, Spent>();
  /** The lineage of every key whose lineage has a budget. */
  private lineageOf = new Map<string, string>();
  /** Counted since a refresh began reading, per lineage: added to what it read. */
  private sinceRead: Map<string, number> | undefined;
  private alerted = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private refreshing: Promise<void> | undefined;

  constructor(
    private readonly db: Database,
    private readonly meter: MeterView,
    private readonly options: BudgetTrackerOptions,
  ) {}

  start(): void {
    if (this.timer) return;
    void this.refresh();
    // A reload still running when the timer fires is enough; they do not pile up behind a slow database.
    this.timer = setInterval(() => void (this.refreshing ?? this.refresh()), this.options.refreshMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.refreshing;
  }

  /** Counts a metered request against its key's lineage's budget (the meter calls this as it records). */
  record(e: UsageEventInput): void {
    const lineage = this.lineageOf.get(e.keyId);
    if (lineage === undefined) return;
    const budget = this.budgets.get(lineage);
    if (!budget) return;
    const amount = amountOf(budget.metric, e);
    if (amount === 0) return;
    const month = monthOf(e.at);
    let spent = this.spent.get(lineage);
    if (!spent || spent.month !== month) {
      if (spent && spent.month > month) return;
      spent = { month, end: monthEnd(month), used: 0 };
      this.spent.set(lineage, spent);
    }
    spent.used += amount;
    if (this.sinceRead) this.sinceRead.set(lineage, (this.sinceRead.get(lineage) ?? 0) + amount);
    this.checkAlerts(lineage, budget, spent);
  }

  /** The refusal when the key's lineage has a hard stop and its budget is used up this month; O(1), no I/O. */
  refusal(keyId: string, now = Date.now()): BudgetRefusal | undefined {
    const lineage = this.lineageOf.get(keyId);
    if (lineage === undefined) return undefined;
    const budget = this.budgets.get(lineage);
    if (!budget?.hardStop) return undefined;
    const spent = this.spent.get(lineage);
    if (!spent || now >= spent.end || spent.used < budget.limit) return undefined;
    return { budget, used: spent.used, resetsAt: spent.end };
  }

  /** Where a key's lineage stands this month (this instance's view, refreshed from the database). */
  status(keyId: string, now = Date.now()): BudgetStatus | undefined {
    const lineage = this.lineageOf.get(keyId);
    const budget = lineage === undefined ? undefined : this.budgets.get(lineage);
    if (!budget) return undefined;
    const month = monthOf(now);
    const spent = this.spent.get(lineage!);
    return { budget, month, used: spent?.month === month ? spent.used : 0 };
  }

  /** Every budget and where it stands this month, by lineage (its first key's id): read by /metrics. */
  *standings(now = Date.now()): Iterable<BudgetStatus & { lineage: string }> {
    const month = monthOf(now);
    for (const [lineage, budget] of this.budgets) {
      const spent = this.spent.get(lineage);
      yield { lineage, budget, month, used: spent?.month === month ? spent.used : 0 };
    }
  }

  /**
   * Sets (or with null removes) the budget of a key's rotation lineage (by default its own: a key never
   * rotated) here at once; the database is the caller's to write. The lineage's other keys are found by
   * the refresh this starts.
   */
  apply(keyId: string, budget: Budget | null, lineage = keyId): void {
    this.lineageOf.set(keyId, lineage);
    this.lineageOf.set(lineage, lineage);
    // Use counted in another metric means nothing in this one: it is read again by the refresh below.
    if (budget?.metric !== this.budgets.get(lineage)?.metric) this.spent.delete(lineage);
    if (budget) this.budgets.set(lineage, budget);
    else this.budgets.delete(lineage);
    void this.refresh();
  }

  /**
   * Reloads budgets and this month's usage. Reloads run one after another, and each call gets one that
   * starts after it (a reload already reading may predate a change just written).
   */
  refresh(now?: number): Promise<void> {
    const next = (this.refreshing ?? Promise.resolve())
      .then(() => this.reload(now ?? Date.now()))
      .catch((err: unknown) => this.options.onError(err));
    this.refreshing = next;
    void next.finally(() => {
      if (this.refreshing === next) this.refreshing = undefined;
    });
    return next;
  }

  private async reload(now: number): Promise<void> {
    const month = monthOf(now);
    const from = new Date(`${month}-01T00:00:00Z`);
    // The operator's prices change rarely; every instance re-reads them on this timer too.
    await loadPrices(this.db);
    let read;
    try {
      read = await this.meter.betweenWrites(async () => {
        // No write is under way: the tables hold exactly the written events, `pending` the rest, and
        // `sinceRead` catches what is recorded while the queries run.
        const pending = this.meter.pending();
        this.sinceRead = new Map();
        // A budget belongs to its key's lineage. Rotations once copied it to each replacement: the copy
        // written last is the lineage's (setBudget keeps one row, on the lineage's newest key).
        const rows = await this.db.prisma.keyBudget.findMany({
          orderBy: { updatedAt: "asc" },
          include: { key: { select: { id: true, lineageId: true } } },
        });
        const budgets = new Map<string, Budget>(
          rows.map((r) => [
            r.key.lineageId ?? r.key.id,
            { metric: r.metric as BudgetMetric, limit: r.monthlyLimit, hardStop: r.hardStop },
          ]),
        );
        const lineages = [...budgets.keys()];
        const lineageOf = new Map<string, string>();
        if (!lineages.length) return { budgets, lineageOf, used: new Map<string, number>(), pending, sent: [] };
        const keys = await this.db.prisma.apiKey.findMany({
          where: { OR: [{ id: { in: lineages } }, { lineageId: { in: lineages } }] },
          select: { id: true, lineageId: true },
        });
        for (const k of keys) lineageOf.set(k.id, k.lineageId ?? k.id);
        const keyIds = [...lineageOf.keys()];
        const budgetOf = (keyId: string) => budgets.get(lineageOf.get(keyId)!)!;
        const costKeys = keyIds.filter((k) => budgetOf(k).metric === "cost");
        const [daily, models, features, sent] = await Promise.all([
          this.db.prisma.usageDaily.groupBy({
            by: ["keyId"],
            where: { keyId: { in: keyIds }, day: { gte: from } },
            _sum: { requests: true, status429: true, tokens: true },
          }),
          this.db.prisma.usageDailyModel.groupBy({
            by: ["keyId", "provider", "model"],
            where: { keyId: { in: keyIds }, day: { gte: from } },
            _sum: { promptTokens: true, completionTokens: true },
          }),
          costKeys.length
            ? this.db.prisma.usageDailyFeature.groupBy({
                by: ["keyId", "provider", "feature"],
                where: { keyId: { in: costKeys }, day: { gte: from } },
                _sum: { uses: true },
              })
            : [],
          this.db.prisma.budgetAlert.findMany({ where: { keyId: { in: lineages }, month } }),
        ]);
        // Use per lineage: what every key of it spent this month.
        const used = new Map<string, number>();
        const add = (keyId: string, n: number) => {
          const lineage = lineageOf.get(keyId)!;
          used.set(lineage, (used.get(lineage) ?? 0) + n);
        };
        for (const d of daily) {
          const metric = budgetOf(d.keyId).metric;
          if (metric === "requests") add(d.keyId, (d._sum.requests ?? 0) - (d._sum.status429 ?? 0));
          if (metric === "tokens") add(d.keyId, Number(d._sum.tokens ?? 0));
        }
        for (const m of models) {
          if (budgetOf(m.keyId).metric !== "cost") continue;
          const prompt = Number(m._sum.promptTokens ?? 0);
          const completion = Number(m._sum.completionTokens ?? 0);
          add(m.keyId, estimateCost(m.provider, m.model, prompt, completion) ?? 0);
        }
        for (const f of features) add(f.keyId, featureCost(f.provider, { [f.feature]: Number(f._sum.uses ?? 0) }));
        return { budgets, lineageOf, used, pending, sent };
      });
    } catch (err) {
      this.sinceRead = undefined;
      throw err;
    }
    const since = this.sinceRead ?? new Map<string, number>();
    this.sinceRead = undefined;
    this.budgets = read.budgets;
    this.lineageOf = read.lineageOf;
    const spent = new Map<string, Spent>();
    for (const [lineage, budget] of read.budgets) {
      let used = (read.used.get(lineage) ?? 0) + (since.get(lineage) ?? 0);
      for (const e of read.pending)
        if (read.lineageOf.get(e.keyId) === lineage && monthOf(e.at) === month) used += amountOf(budget.metric, e);
      spent.set(lineage, { month, end: monthEnd(month), used });
    }
    this.spent = spent;
    for (const a of read.sent) this.alerted.add(alertId(a.keyId, a.month, a.threshold));
    for (const [lineage, budget] of read.budgets) this.checkAlerts(lineage, budget, spent.get(lineage)!);
  }

  private checkAlerts(keyId: string, budget: Budget, spent: Spent): void {
    for (const threshold of thresholdsReached(spent.used, budget.limit)) {
      const id = alertId(keyId, spent.month, threshold);
      if (this.alerted.has(id)) continue;
      this.alerted.add(id);
      void this.send({ keyId, month: spent.month, threshold, budget, used: spent.used }, id);
    }
  }

  /** Claims the alert in the database (one instance wins), then delivers it; on failure it may be sent again. */
  private async send(alert: BudgetAlert, id: string): Promise<void> {
    let claimed = false;
    try {
      const inserted = await this.db.prisma.$executeRawUnsafe(
        `INSERT INTO budget_alerts (key_id, month, threshold) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
        alert.keyId,
        alert.month,
        alert.threshold,
      );
      if (inserted === 0) return;
      claimed = true;
      await this.options.deliver(alert);
    } catch (err) {
      this.alerted.delete(id);
      if (claimed)
        await this.db.prisma.budgetAlert
          .deleteMany({ where: { keyId: alert.keyId, month: alert.month, threshold: alert.threshold } })
          .catch(() => {});
      this.options.onError(err);
    }
  }
}

const alertId = (keyId: string, month: string, threshold: number) => `${keyId}\u0000${month}\u0000${threshold}`;
