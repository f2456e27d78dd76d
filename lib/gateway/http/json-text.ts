/**
 * A JSON answer already serialised — a search answer spliced around cached results' text, say — for
 * `c.json`. On a keyed route the guard's c.json (guard.ts) sends the text as it is, which saves parsing
 * the cached text and serialising it again; anywhere else it serialises as the value it stands for.
 */
// `T` is the value the text stands for: only the types read it.
export class JsonText<T = unknown> {
  declare readonly stands: T;

  constructor(readonly text: string) {}

  toJSON(): unknown {
    return JSON.parse(this.text);
  }
}

/** The text typed as the value it stands for, so `c.json(served(answer))` checks against the route's response. */
export const served = <T>(json: JsonText<T>): T => json as unknown as T;
