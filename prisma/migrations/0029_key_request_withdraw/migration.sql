-- A requester can withdraw a pending request (status 'withdrawn') and put a declined or withdrawn one out
-- of their list: it stays in the operator's history.
ALTER TABLE "key_requests" ADD COLUMN "dismissed_at" TIMESTAMP(3);
