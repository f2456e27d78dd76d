import type { Database } from "../../db/client.ts";
import type { KeyPolicyNames } from "../../guardrails/prompt-guard.ts";
import type { KeyRecord } from "../keys/record.ts";
import type { NamedLevel, NamedTokenSubject } from "../runtime/limits/limiter.ts";
import type { Budget, BudgetMetric } from "../../usage/budgets.ts";
import { counterId, type Level } from "./levels.ts";

/** One level's limits (a row of level_limits): absent windows are not limited there, nor is an absent budget. */
export type LevelLimits = { minute?: number; day?: number; tokensMinute?: number; tokensDay?: number; budget?: Budget };

/** What a key's requests are checked against beyond its own request windows. */
export type KeyChain = {
  /** Its user's, team's and organisation's request windows, those that set any. */
  requests: readonly NamedLevel[];
  /** Token windows: the key's own (when it has token limits), then its levels'. */
  tokens: readonly NamedTokenSubject[];
  /** Every level above the key that limits it, for GET /v1/key. */
  levels: readonly { level: Level; id: string; name: string; limits: LevelLimits }[];
};

/** A level row as stored: its windows, null where not limited. */
export type LevelRow = {
  level: string;
  subjectId: string;
  minuteLimit: number | null;
  dayLimit: number | null;
  tokenMinuteLimit: number | null;
  tokenDayLimit: number | null;
  monthlyLimit: number | null;
  budgetMetric: string | null;
  budgetHardStop: boolean;
};

export function toLevelLimits(row: LevelRow): LevelLimits {
  return {
    ...(row.minuteLimit !== null && { minute: row.minuteLimit }),
    ...(row.dayLimit !== null && { day: row.dayLimit }),
    ...(row.tokenMinuteLimit !== null && { tokensMinute: row.tokenMinuteLimit }),
    ...(row.tokenDayLimit !== null && { tokensDay: row.tokenDayLimit }),
    ...(row.monthlyLimit !== null && {
      budget: {
        metric: (row.budgetMetric ?? "cost") as BudgetMetric,
        limit: row.monthlyLimit,
        hardStop: row.budgetHardStop,
      },
    }),
  };
}

const NO_LEVELS: KeyChain = { requests: [], tokens: [], levels: [] };

// Rows changed within this window are read again on every poll (clocks of other writers a little behind).
const CLOCK_SLACK_MS = 5_000;

/**
 * Teams, organisations and the limits set above keys, held in memory so a request finds its key's levels
 * with map lookups (and, once worked out, one WeakMap hit per key record). Read whole at start, then
 * polled by updated_at like the keys; `refresh` after a change this process made applies it at once.
 */
export class LevelDirectory {
  private readonly teams = new Map<string, { name: string; organisationId: string; guardrails?: string }>();
  private readonly organisations = new Map<string, string>();
  private readonly limits = new Map<string, LevelLimits>();
  private readonly chains = new WeakMap<KeyRecord, { version: number; chain: KeyChain }>();
  private version = 0;
  private watermark = 0;
  private timer: NodeJS.Timeout | undefined;
  private polling: Promise<void> | undefined;

  constructor(
    private readonly db: Database,
    private readonly options: { refreshMs: number; onError?: (err: unknown) => void },
  ) {}

  /** Reads everything once; the server waits for it before taking requests, so no level is missed. */
  async start(): Promise<void> {
    await this.refresh();
    this.timer ??= setInterval(() => void this.refresh(), this.options.refreshMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.polling;
  }

  /** Reads what changed since the last read (everything, the first time). */
  refresh(): Promise<void> {
    this.polling ??= this.poll().finally(() => (this.polling = undefined));
    return this.polling;
  }

  /**
   * A key's levels with limits: its user's (across all their keys), its team's and the team's
   * organisation's. The common case, no level limits anywhere, costs one size check.
   */
  chainOf(key: KeyRecord): KeyChain {
    if (this.limits.size === 0 && !key.tokenLimits) return NO_LEVELS;
    const known = this.chains.get(key);
    if (known?.version === this.version) return known.chain;
    const chain = this.work(key);
    this.chains.set(key, { version: this.version, chain });
    return chain;
  }

  /** A team with its organisation, when this instance knows it. */
  team(id: string): { id: string; name: string; organisation: { id: string; name: string } } | undefined {
    const team = this.teams.get(id);
    if (!team) return undefined;
    const organisation = { id: team.organisationId, name: this.organisations.get(team.organisationId) ?? "" };
    return { id, name: team.name, organisation };
  }

  /** The guardrail policy a team names for its keys without their own, when it names one. */
  teamGuardrails(id: string): string | undefined {
    return this.teams.get(id)?.guardrails;
  }

  /**
   * The guardrail policies a key's model calls fall under before its alias's: its own, then its team's.
   * A map lookup on the request's path; a team's change arrives with the next poll (or refresh).
   */
  guardrailsOf(key: KeyRecord): KeyPolicyNames {
    return { key: key.guardrails, team: key.teamId === undefined ? undefined : this.teamGuardrails(key.teamId) };
  }

  private work(key: KeyRecord): KeyChain {
    const levels: KeyChain["levels"][number][] = [];
    const add = (level: Level, id: string | null | undefined, name: string) => {
      const limits = id ? this.limits.get(`${level}:${id}`) : undefined;
      if (id && limits && Object.keys(limits).length > 0) levels.push({ level, id, name, limits });
    };
    add("user", key.userId, "account");
    const team = key.teamId ? this.teams.get(key.teamId) : undefined;
    if (team) {
      add("team", key.teamId, team.name);
      add("organisation", team.organisationId, this.organisations.get(team.organisationId) ?? team.organisationId);
    }
    const requests: NamedLevel[] = [];
    const tokens: NamedTokenSubject[] = key.tokenLimits
      ? [{ level: "key", id: key.limitKey, name: key.name, limits: key.tokenLimits }]
      : [];
    for (const { level, id, name, limits } of levels) {
      const counter = counterId(level, id);
      if (limits.minute !== undefined || limits.day !== undefined)
        requests.push({ level, name, id: counter, limits: { minute: limits.minute, day: limits.day } });
      if (limits.tokensMinute !== undefined || limits.tokensDay !== undefined)
        tokens.push({ level, name, id: counter, limits: { minute: limits.tokensMinute, day: limits.tokensDay } });
    }
    return requests.length + tokens.length + levels.length === 0 ? NO_LEVELS : { requests, tokens, levels };
  }

  private async poll(): Promise<void> {
    try {
      const since = new Date(Math.max(0, this.watermark - CLOCK_SLACK_MS));
      const changed = { updatedAt: { gt: since } };
      const [organisations, teams, limits] = await Promise.all([
        this.db.prisma.organisation.findMany({ where: changed }),
        this.db.prisma.team.findMany({ where: changed }),
        this.db.prisma.levelLimit.findMany({ where: changed }),
      ]);
      let changes = 0;
      for (const o of organisations) {
        changes += this.organisations.get(o.id) === o.name ? 0 : 1;
        this.organisations.set(o.id, o.name);
      }
      for (const t of teams) {
        const was = this.teams.get(t.id);
        const guardrails = t.guardrails ?? undefined;
        changes +=
          was?.name === t.name && was.organisationId === t.organisationId && was.guardrails === guardrails ? 0 : 1;
        this.teams.set(t.id, { name: t.name, organisationId: t.organisationId, ...(guardrails && { guardrails }) });
      }
      for (const row of limits) {
        const next = toLevelLimits(row);
        const slot = `${row.level}:${row.subjectId}`;
        changes += JSON.stringify(this.limits.get(slot) ?? {}) === JSON.stringify(next) ? 0 : 1;
        if (Object.keys(next).length > 0) this.limits.set(slot, next);
        else this.limits.delete(slot);
      }
      for (const row of [...organisations, ...teams, ...limits])
        this.watermark = Math.max(this.watermark, row.updatedAt.getTime());
      if (changes > 0) this.version++;
    } catch (err) {
      this.options.onError?.(err);
    }
  }
}
