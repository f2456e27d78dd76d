import type { Runtime } from "../../gateway/runtime/runtime.ts";
import type { ResponseInputItem, ResponseObject } from "../../llm/wire/types.ts";

/** What a follow-up continues from, and what GET answers. */
export type StoredTurn = { items: ResponseInputItem[]; response: ResponseObject };

type Entry = StoredTurn & { expiresAt: number };

// Follow-ups usually come right after the answer they continue, so the latest are kept in memory: the
// request that continues one reads no database, and neither waits for the other's write.
const RECENT = 512;
// Kept in memory under its owner and id together: one key's entry is never another's to read or replace.
const recentKey = (owner: string, id: string) => `${owner} ${id}`;
const SWEEP_MS = 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Stored Responses API answers, per key, for `previous_response_id`, GET and DELETE: written behind the
 * answer (the response never waits on the database), read from memory first, deleted once expired.
 */
export class ResponseStore {
  private readonly recent = new Map<string, Entry>();
  private readonly writes = new Set<Promise<unknown>>();
  private lastSweep = 0;

  constructor(private readonly rt: Runtime) {
    // Nothing is lost on shutdown: the runtime closes after the writes still under way.
    rt.onClose(async () => void (await Promise.allSettled([...this.writes])));
  }

  save(owner: string, turn: StoredTurn): void {
    const expiresAt = Date.now() + this.rt.config.responsesRetentionDays * DAY_MS;
    this.remember(recentKey(owner, turn.response.id), { ...turn, expiresAt });
    this.track(
      this.rt.db.prisma.storedResponse.create({
        data: {
          id: turn.response.id,
          ownerKeyId: owner,
          items: turn.items as object[],
          response: turn.response as object,
          expiresAt: new Date(expiresAt),
        },
      }),
    );
    if (Date.now() - this.lastSweep > SWEEP_MS) {
      this.lastSweep = Date.now();
      this.track(this.rt.db.prisma.storedResponse.deleteMany({ where: { expiresAt: { lt: new Date() } } }));
    }
  }

  /** The stored turn, when this key made it and it has not expired; another key's id reads as absent. */
  async get(owner: string, id: string): Promise<StoredTurn | undefined> {
    const hit = this.recent.get(recentKey(owner, id));
    if (hit) return hit.expiresAt > Date.now() ? hit : undefined;
    const row = await this.rt.db.prisma.storedResponse.findUnique({ where: { id } });
    if (!row || row.ownerKeyId !== owner || row.expiresAt.getTime() <= Date.now()) return undefined;
    return { items: row.items as unknown as ResponseInputItem[], response: row.response as unknown as ResponseObject };
  }

  async delete(owner: string, id: string): Promise<boolean> {
    const forgotten = this.recent.delete(recentKey(owner, id));
    await Promise.allSettled([...this.writes]);
    const { count } = await this.rt.db.prisma.storedResponse.deleteMany({ where: { id, ownerKeyId: owner } });
    return count > 0 || forgotten;
  }

  private remember(key: string, entry: Entry): void {
    if (this.recent.size >= RECENT) this.recent.delete(this.recent.keys().next().value!);
    this.recent.set(key, entry);
  }

  private track(write: Promise<unknown>): void {
    const settled = write
      .catch((err: unknown) => this.rt.logger.error({ err }, "stored response write failed"))
      .finally(() => this.writes.delete(settled));
    this.writes.add(settled);
  }
}

const stores = new WeakMap<Runtime, ResponseStore>();

/** The runtime's one store. */
export function responseStore(rt: Runtime): ResponseStore {
  let store = stores.get(rt);
  if (!store) stores.set(rt, (store = new ResponseStore(rt)));
  return store;
}
