-- Responses API answers kept for previous_response_id (issue #15), per key, until they expire.

-- CreateTable
CREATE TABLE "stored_responses" (
    "id" TEXT NOT NULL,
    "owner_key_id" TEXT NOT NULL,
    "items" JSONB NOT NULL,
    "response" JSONB NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "stored_responses_pkey" PRIMARY KEY ("id")
);

-- CreateIndex: the expiry sweep
CREATE INDEX "stored_responses_expires_at_idx" ON "stored_responses"("expires_at");
