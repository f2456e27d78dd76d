-- Whose answers a key's response-cache policy reads and fills: the key's lineage ('key', as before),
-- every key of its user ('user') or of its team ('team').
ALTER TABLE "api_keys" ADD COLUMN "cache_scope" TEXT NOT NULL DEFAULT 'key';
