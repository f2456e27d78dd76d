-- Key rules: limits follow a key's lineage across rotations, a rotated key remembers its replacement,
-- and the scopes an operator granted are kept apart from the owner's narrower choice.

-- AlterTable
ALTER TABLE "api_keys" ADD COLUMN "lineage_id" TEXT;
ALTER TABLE "api_keys" ADD COLUMN "replaced_by" TEXT;
ALTER TABLE "api_keys" ADD COLUMN "granted_scopes" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- Existing keys: each is the start of its own lineage, and what it may call now is what was granted.
UPDATE "api_keys" SET "lineage_id" = "id", "granted_scopes" = "scopes";
