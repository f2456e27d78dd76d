// The usage dashboards' period: a preset (the last 7, 30 or 90 days, this month, last month) or two
// days of the caller's choosing, all in whole UTC days as the daily rollups count them.
import { z } from "zod";

export const PERIOD_PRESETS = {
  "7d": "Last 7 days",
  "30d": "Last 30 days",
  "90d": "Last 90 days",
  month: "This month",
  "last-month": "Last month",
} as const;

export type PeriodPreset = keyof typeof PERIOD_PRESETS;
export const DEFAULT_PERIOD: PeriodPreset = "30d";

/** The longest custom period: a year and a day, so a year's comparison fits. */
export const MAX_PERIOD_DAYS = 366;

/** A period as the reports use it: first and last UTC day (both counted), and how to say it. */
export type Period = { range: PeriodPreset | "custom"; from: string; to: string; label: string };

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 86_400_000;

const dayText = (date: Date) => date.toISOString().slice(0, 10);
const daysBefore = (day: string, n: number) => dayText(new Date(Date.parse(`${day}T00:00:00Z`) - n * DAY_MS));
const isRealDay = (text: string) => DAY.test(text) && dayText(new Date(`${text}T00:00:00Z`)) === text;

/** How many days a period counts, both ends included. */
export const periodDays = (p: Pick<Period, "from" | "to">) =>
  Math.round((Date.parse(`${p.to}T00:00:00Z`) - Date.parse(`${p.from}T00:00:00Z`)) / DAY_MS) + 1;

/** A preset's first and last day, the last being today (UTC) but for last month. */
export function presetPeriod(range: PeriodPreset, now = new Date()): Period {
  const today = dayText(now);
  const label = PERIOD_PRESETS[range];
  switch (range) {
    case "7d":
      return { range, from: daysBefore(today, 6), to: today, label };
    case "30d":
      return { range, from: daysBefore(today, 29), to: today, label };
    case "90d":
      return { range, from: daysBefore(today, 89), to: today, label };
    case "month":
      return { range, from: `${today.slice(0, 7)}-01`, to: today, label };
    case "last-month": {
      const lastDay = daysBefore(`${today.slice(0, 7)}-01`, 1);
      return { range, from: `${lastDay.slice(0, 7)}-01`, to: lastDay, label };
    }
  }
}

const blankAsMissing = (v: unknown) => (typeof v === "string" && v.trim() !== "" ? v.trim() : undefined);

/** The period fields of a dashboard's query string, each said in words when it is wrong. */
export const periodQuery = z.object({
  range: z.preprocess(
    blankAsMissing,
    z
      .enum([...(Object.keys(PERIOD_PRESETS) as PeriodPreset[]), "custom"], {
        message: `range must be one of ${Object.keys(PERIOD_PRESETS).join(", ")} or custom`,
      })
      .optional(),
  ),
  from: z.preprocess(blankAsMissing, z.string().refine(isRealDay, "from must be a day, YYYY-MM-DD (UTC)").optional()),
  to: z.preprocess(blankAsMissing, z.string().refine(isRealDay, "to must be a day, YYYY-MM-DD (UTC)").optional()),
});

export type PeriodQuery = z.infer<typeof periodQuery>;

/**
 * The period a query asks for: a preset, or from and to (a custom range, which either alone also means);
 * the default is the last 30 days. A custom period may not end after today, start after it ends, or span
 * more than MAX_PERIOD_DAYS: the problem is said in words.
 */
export function periodOf(query: PeriodQuery, now = new Date()): { period: Period } | { problem: string } {
  const range = query.range ?? ((query.from ?? query.to) ? "custom" : DEFAULT_PERIOD);
  if (range !== "custom") return { period: presetPeriod(range, now) };
  const today = dayText(now);
  const to = query.to ?? today;
  if (!query.from) return { problem: "a custom period needs its first day (from)" };
  const period: Period = { range: "custom", from: query.from, to, label: `${query.from} to ${to}` };
  if (query.from > today) return { problem: `the period cannot start after today (${today}, UTC)` };
  if (to > today) return { problem: `the period cannot end after today (${today}, UTC)` };
  if (query.from > to) return { problem: "the period's first day (from) must not be after its last (to)" };
  if (periodDays(period) > MAX_PERIOD_DAYS) return { problem: `a period can span at most ${MAX_PERIOD_DAYS} days` };
  return { period };
}

/** Every day of a period, in order. */
export function daysOf(p: Pick<Period, "from" | "to">): string[] {
  return Array.from({ length: periodDays(p) }, (_, i) => daysBefore(p.to, periodDays(p) - 1 - i));
}
