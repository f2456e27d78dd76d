-- The portal's request log (issue #16 item 3): usage_events is read per request, so it needs lookups
-- by the X-Request-Id a client holds, and by time alone for the operator's view across keys and the
-- retention sweep (REQUEST_LOG_RETENTION_DAYS), which deletes the oldest rows first.

-- CreateIndex: find a request by the id its response carried
CREATE INDEX "usage_events_request_id_idx" ON "usage_events"("request_id");

-- CreateIndex: newest first across all keys (keyset on created_at, id), and the retention sweep
CREATE INDEX "usage_events_created_at_id_idx" ON "usage_events"("created_at", "id");
