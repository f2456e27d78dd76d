-- Team guardrails: the routing file's policy for the model calls of a team's keys that name none of their own
-- (keys CLI set-guardrails); and the request-log rows that carry decisions, found per key without scanning the
-- rest (the portal's "Recent guardrail decisions").
ALTER TABLE "teams" ADD COLUMN "guardrails" TEXT;
CREATE INDEX "usage_events_guarded_idx" ON "usage_events"("key_id", "created_at") WHERE "guardrails" IS NOT NULL;
