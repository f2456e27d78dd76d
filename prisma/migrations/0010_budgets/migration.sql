-- Usage you can trust and budgets (issue #16 items 4 and 5).

-- Calls and tokens per key, UTC day, provider and model: the dashboards' breakdown by model, and the
-- tokens each model's price applies to (estimated cost is computed when read, never stored).
CREATE TABLE "usage_daily_model" (
    "key_id" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "provider" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "requests" INTEGER NOT NULL DEFAULT 0,
    "prompt_tokens" BIGINT NOT NULL DEFAULT 0,
    "completion_tokens" BIGINT NOT NULL DEFAULT 0,
    CONSTRAINT "usage_daily_model_pkey" PRIMARY KEY ("key_id", "day", "provider", "model")
);

-- What the request log still holds (REQUEST_LOG_RETENTION_DAYS) is rolled up, so the breakdown is not
-- empty after the upgrade; older days stay known by provider only (usage_daily_provider).
INSERT INTO "usage_daily_model" ("key_id", "day", "provider", "model", "requests", "prompt_tokens", "completion_tokens")
SELECT "key_id", ("created_at")::date, "provider", COALESCE("model", ''), count(*),
       COALESCE(sum("prompt_tokens"), 0), COALESCE(sum("completion_tokens"), 0)
FROM "usage_events" WHERE "provider" IS NOT NULL
GROUP BY 1, 2, 3, 4;

-- The operator's prices, USD per million tokens; a row overrides the default for that model in code
-- (lib/usage/prices.ts), and a model with neither has no estimated cost.
CREATE TABLE "model_prices" (
    "provider" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "input_per_million" DOUBLE PRECISION NOT NULL,
    "output_per_million" DOUBLE PRECISION NOT NULL,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_by" TEXT,
    CONSTRAINT "model_prices_pkey" PRIMARY KEY ("provider", "model"),
    CONSTRAINT "model_prices_nonnegative" CHECK ("input_per_million" >= 0 AND "output_per_million" >= 0)
);

-- One monthly budget per key, set by its owner within the operator's ceiling.
CREATE TABLE "key_budgets" (
    "key_id" TEXT NOT NULL,
    "metric" TEXT NOT NULL,
    "monthly_limit" DOUBLE PRECISION NOT NULL,
    "hard_stop" BOOLEAN NOT NULL DEFAULT false,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "key_budgets_pkey" PRIMARY KEY ("key_id"),
    CONSTRAINT "key_budgets_metric" CHECK ("metric" IN ('requests', 'tokens', 'cost')),
    CONSTRAINT "key_budgets_positive" CHECK ("monthly_limit" > 0),
    CONSTRAINT "key_budgets_key_id_fkey" FOREIGN KEY ("key_id") REFERENCES "api_keys"("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- Alerts mailed: the primary key makes each threshold's alert once per key per month, across instances.
CREATE TABLE "budget_alerts" (
    "key_id" TEXT NOT NULL,
    "month" TEXT NOT NULL,
    "threshold" INTEGER NOT NULL,
    "sent_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "budget_alerts_pkey" PRIMARY KEY ("key_id", "month", "threshold"),
    CONSTRAINT "budget_alerts_key_id_fkey" FOREIGN KEY ("key_id") REFERENCES "api_keys"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
