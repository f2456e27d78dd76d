import type { Database } from "../db/client.ts";
import type { UsageEventInput } from "./usage-event.ts";
import { estimateCost, featureCost, loadPrices } from "./prices.ts";
import { counterId } from "../gateway/teams/levels.ts";

export const BUDGET_METRICS = ["requests", "tokens", "cost"] as const;
export type BudgetMetric = (typeof BUDGET_METRICS)[number];

/** A key's monthly budget (UTC calendar month) in its metric; `hardStop` refuses requests once it is used up. */
export type Budget = { metric: BudgetMetric; limit: number; hardStop: boolean };

/** The most an owner may set per metric (BUDGET_MAX_REQUESTS, BUDGET_MAX_TOKENS, BUDGET_MAX_COST_USD). */
export type BudgetCeilings = Record<BudgetMetric, number>;

/** Alerts go out when this share (percent) of a budget is used, each once per key and month. */
export const ALERT_THRESHOLDS = [80, 100] as const;

/**
 * Who a budget belongs to: a key's rotation lineage (its budget follows the key's rotations), or a level
 * above keys (a user's account, a team, an organisation), whose budget counts the spend of all its keys.
 */
export type BudgetHolder =
  | { level: "key" }
  | {
      level: "user" | "team" | "organisation";
      /** The level's id. */ id: string;
      /** Its name (a user's address). */ name: string;
    };

/** A budget alert to deliver: the holder, the month (YYYY-MM), the threshold crossed and where it stands. */
export type BudgetAlert = {
  /** The holder's id: a lineage's first key id, or a level's counter id (user:ID, team:ID, org:ID). */
  keyId: string;
  holder: BudgetHolder;
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

/** A budget's refusal: whose budget, the budget, what is used, and when it resets (epoch ms). */
export type BudgetRefusal = { holder: BudgetHolder; budget: Budget; used: number; resetsAt: number };

/** Where a key stands this month, for the dashboard. */
export type BudgetStatus = { budget: Budget; month: string; used: number };

/** A holder's use in one month: from `start` (epoch ms) to `end`, when it resets. */
type Spent = { month: string; start: number; end: number; used: number };

function spentIn(month: string, used: number): Spent {
  return {
    month,
    start: Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)) - 1, 1),
    end: monthEnd(month),
    used,
  };
}

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

const KEY_HOLDER: BudgetHolder = { level: "key" };

/**
 * Monthly budgets of key lineages and of the levels above keys (users, teams, organisations), kept in
 * memory so the guard's check is one map lookup and a short loop, and nothing on the request path waits
 * for the database. Usage counts in as the meter records it (`record`), into every budget the key's
 * spending belongs to; a timer reloads the budgets and this month's totals from the rollups (other
 * instances' requests included), so several instances agree within `refreshMs`. Alerts are sent off the
 * request path, each once per holder, month and threshold (a row in budget_alerts decides, across
 * instances).
 */
export class BudgetTracker {
  /** Budgets and this month's use per holder: a lineage's first key id, or a level's counter id. */
  private budgets = new Map<string, Budget>();
  private holders = new Map<string, BudgetHolder>();
  private spent = new Map<string, Spent>();
  /** The holders each key's spending counts against: its lineage's first (when it has a budget), then its levels'. */
  private holdersOf = new Map<string, string[]>();
  /** Each team's organisation, while some organisation has a budget: for keys met between reloads. */
  private organisationOf = new Map<string, string>();
  /** Counted since a refresh began reading, per holder: added to what it read. */
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

  /** Counts a metered request against every budget its key's spending belongs to (the meter calls this as it records). */
  record(e: UsageEventInput): void {
    const holders = this.holdersOf.get(e.keyId);
    if (holders === undefined) return;
    const at = e.at.getTime();
    for (const holder of holders) {
      const budget = this.budgets.get(holder);
      if (!budget) continue;
      const amount = amountOf(budget.metric, e);
      if (amount === 0) continue;
      let spent = this.spent.get(holder);
      // The month's bounds decide, without formatting a date per event.
      if (!spent || at < spent.start || at >= spent.end) {
        const month = monthOf(at);
        if (spent && spent.month > month) continue;
        spent = spentIn(month, 0);
        this.spent.set(holder, spent);
      }
      spent.used += amount;
      if (this.sinceRead) this.sinceRead.set(holder, (this.sinceRead.get(holder) ?? 0) + amount);
      this.checkAlerts(holder, budget, spent);
    }
  }

  /**
   * Makes sure a key's spending counts against every budget over it, for a key made since the last reload
   * read them (the reload finds every key of a budgeted user, team or organisation). The guard calls it
   * for each keyed request: one map lookup once the key is known, none while there are no budgets.
   */
  track(key: { id: string; limitKey: string; userId: string | null; teamId?: string }): void {
    if (this.budgets.size === 0 || this.holdersOf.has(key.id)) return;
    const organisation = key.teamId && this.organisationOf.get(key.teamId);
    const of = [
      key.limitKey,
      key.userId && counterId("user", key.userId),
      key.teamId && counterId("team", key.teamId),
      organisation && counterId("organisation", organisation),
    ].filter((h): h is string => !!h && this.budgets.has(h));
    this.holdersOf.set(key.id, of);
  }

  /**
   * The refusal of the first used-up hard-stop budget the key's spending belongs to (its own, then its
   * user's, team's, organisation's); O(holders), no I/O.
   */
  refusal(keyId: string, now = Date.now()): BudgetRefusal | undefined {
    const holders = this.holdersOf.get(keyId);
    if (holders === undefined) return undefined;
    for (const holder of holders) {
      const budget = this.budgets.get(holder);
      if (!budget?.hardStop) continue;
      const spent = this.spent.get(holder);
      if (!spent || now >= spent.end || spent.used < budget.limit) continue;
      return { holder: this.holders.get(holder) ?? KEY_HOLDER, budget, used: spent.used, resetsAt: spent.end };
    }
    return undefined;
  }

  /** Where a key's own budget (its lineage's) stands this month (this instance's view, refreshed from the database). */
  status(keyId: string, now = Date.now()): BudgetStatus | undefined {
    const lineage = this.holdersOf.get(keyId)?.[0];
    const budget = lineage === undefined || isLevelHolder(lineage) ? undefined : this.budgets.get(lineage);
    if (!budget) return undefined;
    return this.standing(lineage!, budget, monthOf(now));
  }

  /** Where a level's budget stands this month, by its counter id (user:ID, team:ID, org:ID). */
  levelStatus(holder: string, now = Date.now()): BudgetStatus | undefined {
    const budget = this.budgets.get(holder);
    return budget && this.standing(holder, budget, monthOf(now));
  }

  /** Every budget and where it stands this month, by holder id (a lineage's first key id, or a level's counter id): read by /metrics. */
  *standings(now = Date.now()): Iterable<BudgetStatus & { lineage: string }> {
    const month = monthOf(now);
    for (const [holder, budget] of this.budgets) yield { lineage: holder, ...this.standing(holder, budget, month) };
  }

  private standing(holder: string, budget: Budget, month: string): BudgetStatus {
    const spent = this.spent.get(holder);
    return { budget, month, used: spent?.month === month ? spent.used : 0 };
  }

  /**
   * Sets (or with null removes) the budget of a key's rotation lineage (by default its own: a key never
   * rotated) here at once; the database is the caller's to write. The lineage's other keys, and the
   * key's levels, are found by the refresh this starts.
   */
  apply(keyId: string, budget: Budget | null, lineage = keyId): void {
    for (const id of new Set([keyId, lineage])) {
      const levels = (this.holdersOf.get(id) ?? []).filter(isLevelHolder);
      this.holdersOf.set(id, [lineage, ...levels]);
    }
    this.holders.set(lineage, KEY_HOLDER);
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
    // The operator's prices change rarely; every instance re-reads them on this timer too.
    await loadPrices(this.db);
    let read;
    try {
      read = await this.meter.betweenWrites(async () => {
        // No write is under way: the tables hold exactly the written events, `pending` the rest, and
        // `sinceRead` catches what is recorded while the queries run.
        const pending = this.meter.pending();
        this.sinceRead = new Map();
        const { budgets, holders } = await this.readBudgets();
        const [holdersOf, organisationOf] = await Promise.all([
          this.readHoldersOf(budgets, holders),
          [...holders.values()].some((h) => h.level === "organisation")
            ? this.db.prisma.team.findMany({ select: { id: true, organisationId: true } })
            : [],
        ]);
        const used = budgets.size ? await this.readUse(budgets, holdersOf, month) : new Map<string, number>();
        const sent = budgets.size
          ? await this.db.prisma.budgetAlert.findMany({ where: { keyId: { in: [...budgets.keys()] }, month } })
          : [];
        return { budgets, holders, holdersOf, organisationOf, used, pending, sent };
      });
    } catch (err) {
      this.sinceRead = undefined;
      throw err;
    }
    const since = this.sinceRead ?? new Map<string, number>();
    this.sinceRead = undefined;
    this.budgets = read.budgets;
    this.holders = read.holders;
    this.holdersOf = read.holdersOf;
    this.organisationOf = new Map(read.organisationOf.map((t) => [t.id, t.organisationId]));
    const spent = new Map<string, Spent>();
    for (const holder of read.budgets.keys())
      spent.set(holder, spentIn(month, (read.used.get(holder) ?? 0) + (since.get(holder) ?? 0)));
    for (const e of read.pending) {
      if (monthOf(e.at) !== month) continue;
      for (const holder of read.holdersOf.get(e.keyId) ?? [])
        spent.get(holder)!.used += amountOf(read.budgets.get(holder)!.metric, e);
    }
    this.spent = spent;
    for (const a of read.sent) this.alerted.add(alertId(a.keyId, a.month, a.threshold));
    for (const [holder, budget] of read.budgets) this.checkAlerts(holder, budget, spent.get(holder)!);
  }

  /** Every budget: key lineages' (key_budgets) and levels' (level_limits with a monthly limit). */
  private async readBudgets(): Promise<{ budgets: Map<string, Budget>; holders: Map<string, BudgetHolder> }> {
    const [keyRows, levelRows] = await Promise.all([
      // Rotations once copied a budget to each replacement: the copy written last is the lineage's
      // (setBudget keeps one row, on the lineage's newest key).
      this.db.prisma.keyBudget.findMany({
        orderBy: { updatedAt: "asc" },
        include: { key: { select: { id: true, lineageId: true } } },
      }),
      this.db.prisma.levelLimit.findMany({ where: { monthlyLimit: { not: null } } }),
    ]);
    const budgets = new Map<string, Budget>();
    const holders = new Map<string, BudgetHolder>();
    for (const r of keyRows) {
      const lineage = r.key.lineageId ?? r.key.id;
      budgets.set(lineage, { metric: r.metric as BudgetMetric, limit: r.monthlyLimit, hardStop: r.hardStop });
      holders.set(lineage, KEY_HOLDER);
    }
    const ids = (level: string) => levelRows.filter((r) => r.level === level).map((r) => r.subjectId);
    const [users, teams, organisations] = await Promise.all([
      this.db.prisma.user.findMany({ where: { id: { in: ids("user") } }, select: { id: true, email: true } }),
      this.db.prisma.team.findMany({ where: { id: { in: ids("team") } }, select: { id: true, name: true } }),
      this.db.prisma.organisation.findMany({
        where: { id: { in: ids("organisation") } },
        select: { id: true, name: true },
      }),
    ]);
    const names = new Map<string, string>([
      ...users.map((u) => [`user:${u.id}`, u.email ?? u.id] as const),
      ...teams.map((t) => [`team:${t.id}`, t.name] as const),
      ...organisations.map((o) => [`organisation:${o.id}`, o.name] as const),
    ]);
    for (const r of levelRows) {
      const level = r.level as "user" | "team" | "organisation";
      const holder = counterId(level, r.subjectId);
      budgets.set(holder, {
        metric: (r.budgetMetric ?? "cost") as BudgetMetric,
        limit: r.monthlyLimit!,
        hardStop: r.budgetHardStop,
      });
      holders.set(holder, { level, id: r.subjectId, name: names.get(`${level}:${r.subjectId}`) ?? r.subjectId });
    }
    return { budgets, holders };
  }

  /** The holders of every key whose spending some budget counts: its lineage's, its user's, team's and organisation's. */
  private async readHoldersOf(
    budgets: Map<string, Budget>,
    holders: Map<string, BudgetHolder>,
  ): Promise<Map<string, string[]>> {
    const lineages: string[] = [];
    const levelIds = { user: [] as string[], team: [] as string[], organisation: [] as string[] };
    for (const [id, holder] of holders) {
      if (holder.level === "key") lineages.push(id);
      else levelIds[holder.level].push(holder.id);
    }
    const holdersOf = new Map<string, string[]>();
    if (!budgets.size) return holdersOf;
    const keys = await this.db.prisma.apiKey.findMany({
      where: {
        OR: [
          { id: { in: lineages } },
          { lineageId: { in: lineages } },
          { userId: { in: levelIds.user } },
          { teamId: { in: levelIds.team } },
          { team: { organisationId: { in: levelIds.organisation } } },
        ],
      },
      select: { id: true, lineageId: true, userId: true, teamId: true, team: { select: { organisationId: true } } },
    });
    for (const k of keys) {
      const of = [
        k.lineageId ?? k.id,
        k.userId && counterId("user", k.userId),
        k.teamId && counterId("team", k.teamId),
        k.team && counterId("organisation", k.team.organisationId),
      ].filter((h): h is string => !!h && budgets.has(h));
      if (of.length) holdersOf.set(k.id, of);
    }
    return holdersOf;
  }

  /** This month's use per holder, in each holder's metric: what every key it holds spent, from the rollups. */
  private async readUse(
    budgets: Map<string, Budget>,
    holdersOf: Map<string, string[]>,
    month: string,
  ): Promise<Map<string, number>> {
    const from = new Date(`${month}-01T00:00:00Z`);
    const keyIds = [...holdersOf.keys()];
    const metricsOf = (keyId: string) => holdersOf.get(keyId)!.map((h) => budgets.get(h)!.metric);
    const costKeys = keyIds.filter((k) => metricsOf(k).includes("cost"));
    const [daily, models, features] = await Promise.all([
      this.db.prisma.usageDaily.groupBy({
        by: ["keyId"],
        where: { keyId: { in: keyIds }, day: { gte: from } },
        _sum: { requests: true, status429: true, tokens: true },
      }),
      costKeys.length
        ? this.db.prisma.usageDailyModel.groupBy({
            by: ["keyId", "provider", "model"],
            where: { keyId: { in: costKeys }, day: { gte: from } },
            _sum: { promptTokens: true, completionTokens: true },
          })
        : [],
      costKeys.length
        ? this.db.prisma.usageDailyFeature.groupBy({
            by: ["keyId", "provider", "feature"],
            where: { keyId: { in: costKeys }, day: { gte: from } },
            _sum: { uses: true },
          })
        : [],
    ]);
    const used = new Map<string, number>();
    const add = (keyId: string, metric: BudgetMetric, n: number) => {
      for (const holder of holdersOf.get(keyId)!)
        if (budgets.get(holder)!.metric === metric) used.set(holder, (used.get(holder) ?? 0) + n);
    };
    for (const d of daily) {
      add(d.keyId, "requests", (d._sum.requests ?? 0) - (d._sum.status429 ?? 0));
      add(d.keyId, "tokens", Number(d._sum.tokens ?? 0));
    }
    for (const m of models) {
      const prompt = Number(m._sum.promptTokens ?? 0);
      const completion = Number(m._sum.completionTokens ?? 0);
      add(m.keyId, "cost", estimateCost(m.provider, m.model, prompt, completion) ?? 0);
    }
    for (const f of features) add(f.keyId, "cost", featureCost(f.provider, { [f.feature]: Number(f._sum.uses ?? 0) }));
    return used;
  }

  private checkAlerts(holder: string, budget: Budget, spent: Spent): void {
    // Most calls are below the lowest threshold: nothing to look up.
    if (spent.used < (budget.limit * ALERT_THRESHOLDS[0]) / 100) return;
    for (const threshold of thresholdsReached(spent.used, budget.limit)) {
      const id = alertId(holder, spent.month, threshold);
      if (this.alerted.has(id)) continue;
      this.alerted.add(id);
      const alert = {
        keyId: holder,
        holder: this.holders.get(holder) ?? KEY_HOLDER,
        month: spent.month,
        threshold,
        budget,
        used: spent.used,
      };
      void this.send(alert, id);
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

/** Level holders are counter ids (user:ID, team:ID, org:ID); lineages are key ids, which hold no colon. */
const isLevelHolder = (holder: string): boolean => holder.includes(":");

const alertId = (holder: string, month: string, threshold: number) => `${holder}\u0000${month}\u0000${threshold}`;
