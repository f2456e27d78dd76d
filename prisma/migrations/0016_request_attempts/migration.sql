-- Every attempt of a routed model call in the request log: when a request was retried, fell over to
-- another deployment or skipped one (its breaker open), the attempts in order, each with its deployment,
-- provider, model, status, duration, outcome and reason, at most 20 (lib/usage/request-attempts.ts).
-- Null for a request answered by its first attempt, which is nearly every one: no rewrite, no default.
ALTER TABLE "usage_events" ADD COLUMN "attempts" JSONB;
