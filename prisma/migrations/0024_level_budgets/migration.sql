-- A monthly budget above the key: an organisation's, a team's or a user's spend across their keys, in one
-- metric (cost in USD, tokens or requests), refusing requests once used up unless it only alerts.
ALTER TABLE "level_limits" ADD COLUMN "monthly_limit" DOUBLE PRECISION;
ALTER TABLE "level_limits" ADD COLUMN "budget_metric" TEXT;
ALTER TABLE "level_limits" ADD COLUMN "budget_hard_stop" BOOLEAN NOT NULL DEFAULT true;

-- An alert's holder is a key's rotation lineage (its first key's id) or a level (user:ID, team:ID, org:ID):
-- no longer always a key.
ALTER TABLE "budget_alerts" DROP CONSTRAINT "budget_alerts_key_id_fkey";
