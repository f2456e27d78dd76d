// `npm run test:live`: runs every data-source adapter against the real services (needs internet; never
// in CI). Each source is searched and its outcome printed; sources whose credential is unset are
// skipped. Exit status 1 when any source that could run failed.
import { listedSources } from "../lib/data-sources/registry.ts";
import { cachedSearch } from "../lib/data-sources/source.ts";
import { GatewayError } from "../lib/errors.ts";
import { MemoryUpstreamCache } from "../lib/upstream/cache.ts";

const QUERIES: Record<string, string> = {
  archive: "example.com",
  census: "california",
  weather: "London",
  finance: "bitcoin",
  fec: "smith",
  mal: "naruto",
};

async function main() {
  for (const name of Object.keys(process.env)) if (name.startsWith("UPSTREAM_")) delete process.env[name];
  const cache = new MemoryUpstreamCache();
  let failed = 0;
  for (const source of listedSources()) {
    const started = Date.now();
    try {
      const results = await cachedSearch(source, cache, QUERIES[source.name] ?? "climate", 3);
      console.log(
        `ok       ${source.name.padEnd(17)} ${results.length} results in ${Date.now() - started} ms${results[0] ? ` — ${results[0].title.slice(0, 60)}` : ""}`,
      );
    } catch (err) {
      const message = err instanceof GatewayError ? err.message : (err as Error).message;
      if (err instanceof GatewayError && err.status === 503 && /not configured/.test(message)) {
        console.log(`skipped  ${source.name.padEnd(17)} ${message}`);
        continue;
      }
      failed += 1;
      console.log(`FAILED   ${source.name.padEnd(17)} ${message}`);
    }
  }
  console.log(failed ? `${failed} source(s) failed against the live services` : "every configured source answered");
  process.exit(failed ? 1 : 0);
}

await main();
