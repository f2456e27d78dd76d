-- CreateTable
CREATE TABLE "ollama_hosts" (
    "id" TEXT NOT NULL,
    "owner_key_id" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "name" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ollama_hosts_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "ollama_hosts_owner_key_id_url_key" ON "ollama_hosts"("owner_key_id", "url");
