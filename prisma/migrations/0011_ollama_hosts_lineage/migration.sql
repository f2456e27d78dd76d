-- Registered runner hosts belong to a key's rotation lineage (its first key's id), as its limits do: a
-- rotation keeps them and brings no fresh room under OLLAMA_HOSTS_PER_KEY. Hosts a rotated key registered
-- under its own id move to its lineage; where the lineage has a URL more than once, the oldest row stays.
DELETE FROM "ollama_hosts" h
USING "api_keys" k
WHERE h."owner_key_id" = k."id"
  AND EXISTS (
    SELECT 1 FROM "ollama_hosts" o JOIN "api_keys" ok ON ok."id" = o."owner_key_id"
    WHERE COALESCE(ok."lineage_id", ok."id") = COALESCE(k."lineage_id", k."id") AND o."url" = h."url"
      AND (o."created_at", o."id") < (h."created_at", h."id")
  );

UPDATE "ollama_hosts" h
SET "owner_key_id" = k."lineage_id"
FROM "api_keys" k
WHERE h."owner_key_id" = k."id" AND k."lineage_id" <> k."id";
