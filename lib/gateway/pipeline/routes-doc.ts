import type { Area } from "../http/area.ts";
import type { RouteDef } from "./route.ts";

const AUTH = { key: "key", optional: "key optional", none: "none" } as const;

/**
 * docs/routes.md: every route of the table in the order areas mount it — method, path, who may call
 * it, its area's scope and the file and line that declares it — so a URL finds its file in one step.
 */
export function routesDocument(areas: readonly Area[]): string {
  const rows = areas.flatMap((area) =>
    area.routes
      .filter((r): r is RouteDef => typeof r !== "function")
      .map((def) => {
        const { method, path } = def.contract;
        const auth = AUTH[def.access.auth];
        const source = def.source ? `[${def.source}](../${def.source.replace(/:(\d+)$/, "#L$1")})` : "";
        return `| ${method.toUpperCase()} | \`${path}\` | ${auth} | ${area.scope} | ${source} |`;
      }),
  );
  return [
    "# Routes",
    "",
    "Every route the gateway serves, in the order its areas are mounted (`lib/app.ts`): the method, the",
    "path, who may call it (a key, a key optional, or none), the area a key's scopes must include, and",
    "where the route is declared. Generated from the route table by `npm run routes:doc`; a test fails",
    "when this file and the table disagree.",
    "",
    "| Method | Path | Auth | Area | Declared in |",
    "| --- | --- | --- | --- | --- |",
    ...rows,
    "",
  ].join("\n");
}
