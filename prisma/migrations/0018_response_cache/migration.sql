-- The response cache's part in the request log: {"state":"miss"} when a model call asked for the cache
-- and the provider answered, or a hit with what the stored answer had cost when it was first given
-- ({"state":"hit","ageS":…,"provider":…,"model":…,"promptTokens":…,"completionTokens":…}), which the hit
-- did not pay. Null for requests that did not ask: no rewrite, no default.
ALTER TABLE "usage_events" ADD COLUMN "cache" JSONB;
