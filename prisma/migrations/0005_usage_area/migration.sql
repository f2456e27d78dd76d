-- Usage records its area: the guard writes the scope of the area that served the route, so the
-- dashboards group by what was recorded instead of re-deriving an area from the route's path.

-- AlterTable
ALTER TABLE "usage_events" ADD COLUMN "area" TEXT;
ALTER TABLE "usage_daily" ADD COLUMN "area" TEXT;

-- Existing rows: the area the dashboard derived from the route until now (routeArea in
-- lib/portal/usage.ts), so they keep their grouping, except that /v1/generators is given to "create",
-- the area that serves it. One CASE over the routes of both tables.
CREATE TEMPORARY TABLE "usage_route_area" AS
SELECT "route",
  CASE
    WHEN "first" <> 'v1' THEN COALESCE(NULLIF("first", ''), 'other')
    WHEN "second" = '' OR "second" LIKE ':%' THEN 'status'
    WHEN "second" IN ('key', 'usage') THEN 'account'
    WHEN "second" = 'capabilities' THEN 'status'
    WHEN "second" IN ('chat', 'embeddings', 'models') THEN 'llm'
    WHEN "second" = 'generators' THEN 'create'
    ELSE "second"
  END AS "area"
FROM (
  SELECT "route",
    split_part(regexp_replace("route", '^/+', ''), '/', 1) AS "first",
    split_part(regexp_replace("route", '^/+', ''), '/', 2) AS "second"
  FROM (SELECT "route" FROM "usage_events" UNION SELECT "route" FROM "usage_daily") AS "routes"
) AS "segments";

UPDATE "usage_events" SET "area" = m."area" FROM "usage_route_area" m WHERE "usage_events"."route" = m."route";
UPDATE "usage_daily" SET "area" = m."area" FROM "usage_route_area" m WHERE "usage_daily"."route" = m."route";
DROP TABLE "usage_route_area";

ALTER TABLE "usage_events" ALTER COLUMN "area" SET NOT NULL;
ALTER TABLE "usage_daily" ALTER COLUMN "area" SET NOT NULL;

-- An instance still running the code before this migration (a rolling upgrade) writes no area: its
-- rows are kept under "unknown" instead of being refused and lost.
ALTER TABLE "usage_events" ALTER COLUMN "area" SET DEFAULT 'unknown';
ALTER TABLE "usage_daily" ALTER COLUMN "area" SET DEFAULT 'unknown';
