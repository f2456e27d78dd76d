-- The semantic response cache's vectors: the embedding of a question's prompt, in the scope of whose
-- answers it is and the partition of everything else that decides the answer (model, sampling, format,
-- embedding model), pointing at the exact cache's entry that holds the answer. Searched in process (an
-- HNSW index each instance rebuilds from this table at start and keeps in step with it), so a lookup
-- never waits on the database; the rows are what survives a restart and what other instances read.

-- CreateTable
CREATE TABLE "llm_cache_vectors" (
    "id" BIGSERIAL NOT NULL,
    "scope" TEXT NOT NULL,
    "partition" TEXT NOT NULL,
    "answer_key" TEXT NOT NULL,
    -- little-endian float32, as many as the embedding model's dimensions
    "vector" BYTEA NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "llm_cache_vectors_pkey" PRIMARY KEY ("id")
);

-- CreateIndex: the expiry sweep
CREATE INDEX "llm_cache_vectors_expires_at_idx" ON "llm_cache_vectors"("expires_at");
-- CreateIndex: an owner's DELETE /v1/cache
CREATE INDEX "llm_cache_vectors_scope_idx" ON "llm_cache_vectors"("scope");
