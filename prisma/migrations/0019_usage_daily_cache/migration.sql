-- The response cache per key, UTC day, provider and model: requests that asked for it and were answered
-- from it (hits, under the provider and model that first gave the answer) or by the provider (misses),
-- and the tokens the hits did not pay. Priced when read, as tokens are (lib/usage/prices.ts), so the
-- dashboards show what the cache saved at today's price table.
CREATE TABLE "usage_daily_cache" (
    "key_id" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "provider" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "hits" INTEGER NOT NULL DEFAULT 0,
    "misses" INTEGER NOT NULL DEFAULT 0,
    "saved_prompt_tokens" BIGINT NOT NULL DEFAULT 0,
    "saved_completion_tokens" BIGINT NOT NULL DEFAULT 0,
    CONSTRAINT "usage_daily_cache_pkey" PRIMARY KEY ("key_id", "day", "provider", "model")
);
