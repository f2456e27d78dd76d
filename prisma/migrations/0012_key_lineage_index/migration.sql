-- Quotas follow a key's rotation lineage (batch items, research tasks, budgets): the keys of one lineage
-- are looked up by it whenever a job is submitted or started and whenever budgets are re-read.
CREATE INDEX "api_keys_lineage_id_idx" ON "api_keys"("lineage_id");
