-- Provider keys a portal user brings for their own calls (bring your own key): sealed with AES-256-GCM
-- under a key from GATEWAY_SECRET_KEYS (lib/llm/routing/secret-box.ts), bound to its owner and provider,
-- so the database alone never reveals one. Only the last four characters are kept in the clear, for display.
CREATE TABLE "provider_credentials" (
    "id" TEXT NOT NULL,
    "owner_id" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "label" TEXT NOT NULL DEFAULT 'default',
    "sealed_secret" TEXT NOT NULL,
    "last4" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMP(3),
    CONSTRAINT "provider_credentials_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "provider_credentials_owner_id_provider_label_key" ON "provider_credentials"("owner_id", "provider", "label");

-- AddForeignKey
ALTER TABLE "provider_credentials" ADD CONSTRAINT "provider_credentials_owner_id_fkey" FOREIGN KEY ("owner_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
