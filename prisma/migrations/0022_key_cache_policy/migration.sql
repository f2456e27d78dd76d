-- A key's response-cache policy, set by the operator: its model calls read answers up to
-- cache_max_age seconds old and keep theirs without asking (as an alias's policy does), and with
-- cache_semantic also match questions by meaning. Null / false: only when a request asks, as before.
ALTER TABLE "api_keys" ADD COLUMN "cache_max_age" INTEGER;
ALTER TABLE "api_keys" ADD COLUMN "cache_semantic" BOOLEAN NOT NULL DEFAULT false;
