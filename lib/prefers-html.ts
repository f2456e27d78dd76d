/** True when text/html is acceptable with at least the weight of JSON and of anything else. */
export function prefersHtml(accept: string | undefined): boolean {
  if (!accept) return false;
  const weights = new Map<string, number>();
  for (const part of accept.split(",")) {
    const [type, ...params] = part.trim().toLowerCase().split(";");
    if (!type) continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    weights.set(type, qParam ? Number(qParam.slice(2)) || 0 : 1);
  }
  const html = weights.get("text/html") ?? 0;
  if (html === 0) return false;
  return html >= (weights.get("application/json") ?? 0) && html >= (weights.get("*/*") ?? 0);
}
