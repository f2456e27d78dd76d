-- Guardrails: the policy of the routing file a key's model calls are checked under (keys CLI --guardrails),
-- and what the checks decided on each request (check, action, stage, kinds; never a value).
ALTER TABLE "api_keys" ADD COLUMN "guardrails" TEXT;
ALTER TABLE "usage_events" ADD COLUMN "guardrails" JSONB;
