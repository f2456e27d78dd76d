-- Keys, second pass (issue #16): a key request carries the scopes and expiry asked for, so a key is
-- made in one step, and a key's name is unique among its owner's keys.

-- AlterTable
ALTER TABLE "key_requests" ADD COLUMN "scopes" TEXT[] DEFAULT ARRAY[]::TEXT[];
ALTER TABLE "key_requests" ADD COLUMN "expires_at" TIMESTAMP(3);

-- A name is held by a key of a portal user that is a client key, not revoked and not rotated away: a
-- revoked key gives its name back, and a rotation's replacement takes its predecessor's name over.
-- An expired key still holds it (an index cannot depend on the time). Names compare case-insensitively.
--
-- Existing duplicates are renamed first, deterministically: per user, keys holding names (oldest
-- first), then open requests (pending, or approved and not yet picked up: their name becomes a key's
-- when picked up). Each keeps its name unless an earlier one has it, else takes the lowest " (n)"
-- suffix, n >= 2, that is neither taken nor another of the user's names (so a name that was unique
-- already is never the one changed), cut to fit the 100 characters a name may have. Each rename is
-- written to the audit log, so the owner and the operator can see why a name changed.
CREATE TEMPORARY TABLE "named" ON COMMIT DROP AS
  SELECT 0 AS "rank", "id", "user_id", "name", "created_at" FROM "api_keys"
    WHERE "user_id" IS NOT NULL AND "kind" = 'client' AND "status" = 'active' AND "replaced_by" IS NULL
  UNION ALL
  SELECT 1, "id", "user_id", "name", "created_at" FROM "key_requests"
    WHERE "status" = 'pending' OR ("status" = 'approved' AND "key_id" IS NULL);

CREATE TEMPORARY TABLE "taken_key_names" (
    "user_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    PRIMARY KEY ("user_id", "name")
) ON COMMIT DROP;

DO $$
DECLARE
  r RECORD;
  candidate TEXT;
  n INTEGER;
BEGIN
  FOR r IN SELECT * FROM "named" ORDER BY "user_id", "rank", "created_at", "id" LOOP
    candidate := r."name";
    n := 1;
    WHILE EXISTS (SELECT 1 FROM "taken_key_names" t WHERE t."user_id" = r."user_id" AND t."name" = lower(candidate))
      OR (n > 1 AND EXISTS (SELECT 1 FROM "named" o WHERE o."user_id" = r."user_id" AND lower(o."name") = lower(candidate)))
    LOOP
      n := n + 1;
      candidate := left(r."name", 100 - length(' (' || n || ')')) || ' (' || n || ')';
    END LOOP;
    INSERT INTO "taken_key_names" VALUES (r."user_id", lower(candidate));
    IF candidate <> r."name" THEN
      IF r."rank" = 0 THEN
        -- updated_at moves, so running instances' key caches pick the new name up.
        UPDATE "api_keys" SET "name" = candidate, "updated_at" = CURRENT_TIMESTAMP WHERE "id" = r."id";
        INSERT INTO "audit_log" ("actor", "action", "target", "detail")
          VALUES ('migration:0009_key_names', 'key.rename', r."id", jsonb_build_object('from', r."name", 'to', candidate));
      ELSE
        UPDATE "key_requests" SET "name" = candidate WHERE "id" = r."id";
        INSERT INTO "audit_log" ("actor", "action", "target", "detail")
          VALUES ('migration:0009_key_names', 'key_request.rename', r."id", jsonb_build_object('from', r."name", 'to', candidate));
      END IF;
    END IF;
  END LOOP;
END $$;

-- CreateIndex (not in schema.prisma: Prisma cannot express a partial index on an expression)
CREATE UNIQUE INDEX "api_keys_user_name_key" ON "api_keys"("user_id", lower("name"))
  WHERE "kind" = 'client' AND "status" = 'active' AND "replaced_by" IS NULL;
