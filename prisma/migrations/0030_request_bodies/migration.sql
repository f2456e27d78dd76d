-- Model calls' request and answer bodies, kept only when the operator turns REQUEST_LOG_BODIES on; read by
-- a request's detail page and deleted with the request log's rows (REQUEST_LOG_RETENTION_DAYS).
CREATE TABLE "request_bodies" (
    "id" BIGSERIAL NOT NULL,
    "key_id" TEXT NOT NULL,
    "request_id" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL,
    "request" TEXT NOT NULL,
    "response" TEXT,

    CONSTRAINT "request_bodies_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "request_bodies_request_id_idx" ON "request_bodies"("request_id");
CREATE INDEX "request_bodies_created_at_idx" ON "request_bodies"("created_at");
