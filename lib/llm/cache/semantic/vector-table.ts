// The semantic cache's vectors in the database (llm_cache_vectors): what each instance's in-process
// index is rebuilt from at start and kept in step with, and what an owner's or the operator's clearing
// deletes. Statements go to the driver directly (Database.withSession): a vector is a bytea parameter,
// which Prisma's raw queries would copy and re-encode for nothing.
import type { Database } from "../../../db/client.ts";
import type { VectorEntry } from "./vector-index.ts";

type Row = { id: string; scope: string; partition: string; answer_key: string; vector: Uint8Array; expires_at: string };

const query = <T>(db: Database, sql: string, params: unknown[]) => db.withSession((s) => s.query<T>(sql, params));

/** Little-endian float32 bytes, as the row keeps them (the machines this runs on are little-endian, as V8's typed arrays are here). */
export const vectorBytes = (v: Float32Array): Buffer => Buffer.from(v.buffer, v.byteOffset, v.byteLength);

function vectorOf(bytes: Uint8Array): Float32Array {
  // A copy: the driver's buffer may be a view at an offset no Float32Array can start at.
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  return new Float32Array(copy.buffer, 0, Math.floor(copy.byteLength / 4));
}

/** Stores a vector; resolves with its row's id. */
export async function insertVector(db: Database, entry: VectorEntry): Promise<bigint> {
  const [row] = await query<{ id: string }>(
    db,
    `INSERT INTO llm_cache_vectors (scope, partition, answer_key, vector, expires_at)
     VALUES ($1, $2, $3, $4, ($5::timestamptz AT TIME ZONE 'UTC')) RETURNING id::text AS id`,
    [entry.scope, entry.partition, entry.answerKey, vectorBytes(entry.vector), new Date(entry.expiresAt).toISOString()],
  );
  return BigInt(row!.id);
}

/**
 * Up to `limit` unexpired vectors with an id above `afterId`, in id order: pages of the rebuild at start,
 * and of the catching up with rows other instances wrote since.
 */
export async function vectorsAfter(
  db: Database,
  afterId: bigint,
  limit: number,
): Promise<(VectorEntry & { rowId: bigint })[]> {
  const rows = await query<Row>(
    db,
    `SELECT id::text AS id, scope, partition, answer_key, vector,
            to_char(expires_at, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS expires_at
     FROM llm_cache_vectors
     WHERE id > $1::bigint AND expires_at > (now() AT TIME ZONE 'UTC')
     ORDER BY id LIMIT $2`,
    [afterId.toString(), limit],
  );
  return rows.map((r) => ({
    rowId: BigInt(r.id),
    scope: r.scope,
    partition: r.partition,
    answerKey: r.answer_key,
    expiresAt: Date.parse(r.expires_at),
    vector: vectorOf(r.vector),
  }));
}

/** Deletes a scope's vectors, or every vector; resolves with how many went. */
export async function deleteVectors(db: Database, scope: string | undefined): Promise<number> {
  const rows =
    scope === undefined
      ? await query<{ n: number }>(
          db,
          `WITH d AS (DELETE FROM llm_cache_vectors RETURNING 1) SELECT count(*)::int AS n FROM d`,
          [],
        )
      : await query<{ n: number }>(
          db,
          `WITH d AS (DELETE FROM llm_cache_vectors WHERE scope = $1 RETURNING 1) SELECT count(*)::int AS n FROM d`,
          [scope],
        );
  return rows[0]?.n ?? 0;
}

/** Deletes up to `batch` expired vectors; resolves with how many went. */
export async function deleteExpiredVectors(db: Database, batch: number): Promise<number> {
  const rows = await query<{ n: number }>(
    db,
    `WITH d AS (DELETE FROM llm_cache_vectors WHERE id IN (
       SELECT id FROM llm_cache_vectors WHERE expires_at <= (now() AT TIME ZONE 'UTC') LIMIT $1 FOR UPDATE SKIP LOCKED)
     RETURNING 1) SELECT count(*)::int AS n FROM d`,
    [batch],
  );
  return rows[0]?.n ?? 0;
}
