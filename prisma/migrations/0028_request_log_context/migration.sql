-- What explains a request in the log: the error message its caller was answered with (failed requests
-- only), the caller's User-Agent, and the tags it sent in x-gateway-metadata (a JSON object of strings).
ALTER TABLE "usage_events" ADD COLUMN "error" TEXT;
ALTER TABLE "usage_events" ADD COLUMN "user_agent" TEXT;
ALTER TABLE "usage_events" ADD COLUMN "tags" JSONB;
