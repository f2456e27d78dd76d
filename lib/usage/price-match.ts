/*
 * Which price applies to a model: no server imports, so the chat console's comparison prices a call the
 * way the usage pages do.
 */

/** USD per million tokens: [input (prompt), output (completion)]. */
export type Price = readonly [number, number];

/**
 * A model's price among a provider's: its own entry, else the longest listed name it starts with
 * (providers answer with dated or suffixed ids such as grok-4-fast-reasoning), else none.
 */
export function bestPrice(models: ReadonlyMap<string, Price>, model: string): Price | undefined {
  const exact = models.get(model);
  if (exact) return exact;
  let best: string | undefined;
  for (const name of models.keys()) if (model.startsWith(name) && (!best || name.length > best.length)) best = name;
  return best === undefined ? undefined : models.get(best);
}
