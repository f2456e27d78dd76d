import { describe, expect, it } from "vitest";
import { judge, SMALL, type LoadKey, type LoadRun, type StoredEvent } from "./limit-load.ts";

// The load suite's verdict must be able to fail: the checks, fed rows a broken limiter would leave.
const ROOMY = { day: 1_000_000, minute: 100_000, concurrency: 1000 };
const key = (kind: LoadKey["kind"]): LoadKey => ({
  id: `id-${kind}`,
  key: "sk_x",
  name: kind,
  kind,
  limits: { ...ROOMY, [kind]: SMALL[kind] },
});
const keys = [key("day"), key("minute"), key("concurrency")];
const MINUTE = Date.UTC(2026, 10, 27, 15, 0);

/** Rows for one key: `admitted` at the given times, then `refused` 429s, and a run that answered them all. */
function rowsOf(k: LoadKey, admitted: number[], refused = 3): StoredEvent[] {
  return [
    ...admitted.map((at) => ({ key_id: k.id, status: 200, at })),
    ...Array.from({ length: refused }, () => ({ key_id: k.id, status: 429, at: admitted.at(-1)! + 1 })),
  ];
}
function runOf(rows: StoredEvent[]): LoadRun {
  const answered = new Map<string, number>();
  for (const r of rows) answered.set(r.key_id, (answered.get(r.key_id) ?? 0) + 1);
  return { seconds: 1, answered, statuses: new Map([[200, rows.length]]), latenciesMs: [1], networkErrors: 0 };
}
const spread = (n: number, from = MINUTE) => Array.from({ length: n }, (_, i) => from + i * 10);
const inFlight = (most: number) => new Map([["concurrency", most]]);

function verdict(day: number[], minute: number[], most = 2, dropRows = 0) {
  const rows = [...rowsOf(keys[0]!, day), ...rowsOf(keys[1]!, minute), ...rowsOf(keys[2]!, spread(5))];
  return judge(keys, rows.slice(dropRows), runOf(rows), inFlight(most));
}

describe("the load suite's checks", () => {
  it("pass a run where every key got exactly its limit", () => {
    const f = verdict(spread(20), spread(15));
    expect(f.overLimit).toEqual([]);
    expect(f.unmatched).toEqual([]);
    expect(f.accuracy).toEqual({
      day: { min: 1, max: 1 },
      minute: { min: 1, max: 1 },
      concurrency: { min: 1, max: 1 },
    });
  });

  it("catch one admission past the day", () => {
    const f = verdict(spread(21), spread(15));
    expect(f.overLimit).toEqual([expect.stringMatching(/^day: 21 admitted on UTC day \d+, limit 20$/)]);
    expect(f.accuracy.day.max).toBe(1.05);
  });

  it("catch an admission past the sliding minute, the previous minute's share included", () => {
    // 15 in one minute, then at 30 s into the next half of them still count: 8 more fit, not 9.
    const next = MINUTE + 60_000 + 30_000;
    expect(verdict(spread(20), [...spread(15), ...spread(8, next)]).overLimit).toEqual([]);
    const f = verdict(spread(20), [...spread(15), ...spread(9, next)]);
    expect(f.overLimit).toEqual([expect.stringMatching(/^minute: admitted at .* with 15 of 15 used$/)]);
  });

  it("catch more calls in flight than the concurrency limit", () => {
    expect(verdict(spread(20), spread(15), 3).overLimit).toEqual(["concurrency: 3 in flight, limit 2"]);
  });

  it("catch answers with no usage row", () => {
    expect(verdict(spread(20), spread(15), 2, 1).unmatched).toEqual(["day: 22 stored, 23 answered"]);
  });
});
