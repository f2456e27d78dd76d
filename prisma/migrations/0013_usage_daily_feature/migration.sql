-- Provider features billed beyond tokens that pass through the compatible surfaces once the operator
-- allows them (LLM_PASSTHROUGH_FEATURES): Anthropic's server tools' uses (web searches...), a service
-- tier above standard. Uses per key, UTC day, provider and feature; priced when read, never stored,
-- as tokens are (lib/usage/prices.ts), so a cost budget counts them.
CREATE TABLE "usage_daily_feature" (
    "key_id" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "provider" TEXT NOT NULL,
    "feature" TEXT NOT NULL,
    "uses" BIGINT NOT NULL DEFAULT 0,
    CONSTRAINT "usage_daily_feature_pkey" PRIMARY KEY ("key_id", "day", "provider", "feature")
);
