import { randomBytes, randomUUID } from "node:crypto";
import type { Database } from "../db/client.ts";
import { Prisma } from "../db/generated/client.ts";
import { toSafeText } from "../gateway/http/safe-text.ts";

/** `budget_exceeded`: the key's hard-stop budget ran out while the work ran; it stopped, keeping what was done. */
export const TASK_STATUSES = ["pending", "running", "completed", "failed", "cancelled", "budget_exceeded"] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];
export const FINAL_STATUSES: ReadonlySet<TaskStatus> = new Set(["completed", "failed", "cancelled", "budget_exceeded"]);

export type Task = {
  id: string;
  kind: string;
  ownerKeyId: string | null;
  status: TaskStatus;
  progress: number;
  input: unknown;
  result: unknown;
  error: string | null;
  usage: unknown;
  createdAt: Date;
  updatedAt: Date;
  completedAt: Date | null;
};

export type TaskUpdate = {
  status?: TaskStatus;
  progress?: number;
  result?: unknown;
  error?: string | null;
  usage?: unknown;
};

/** One progress event of a task, with the position the stream resumes after. */
export type TaskEventRow = { id: bigint; at: Date; data: Record<string, unknown> };

export type CreateOptions = {
  /** Ids of this prefix and 12 hex digits (`research_3f9c…`) instead of the default `task_<uuid>`. */
  idPrefix?: string;
};

/**
 * The ids of a rotation lineage's keys, as SQL for `owner_key_id IN (…)`: its first key (whose id names
 * it) and every key that replaced one of it. Quotas counted in the tasks table go by it, so a rotation
 * brings no fresh room.
 */
export const lineageKeys = (lineage: string) =>
  Prisma.sql`SELECT ${lineage}::text UNION SELECT id FROM api_keys WHERE lineage_id = ${lineage}`;

/** A transaction's client, for reads that must see what it holds locked. */
export type TaskTransaction = Prisma.TransactionClient;

/** What `claimRunning` did: marked it running, left it pending (its lineage is at its cap), or found it ended. */
export type Claim = "running" | "busy" | "ended";

// Generous: a transaction waits here for other submissions of the same lineage, each a count and an insert.
const LOCKED_TRANSACTION_MS = 10_000;

/** Task rows are the truth for every asynchronous job (batch, video, archive, orchestration). */
export class TaskStore {
  constructor(private readonly db: Database) {}

  async create(kind: string, ownerKeyId: string | null, input?: unknown, options: CreateOptions = {}): Promise<Task> {
    return insertTask(this.db.prisma, kind, ownerKeyId, input, options);
  }

  /**
   * Creates a task once `admit` passes, both in one transaction holding the lock named `lock` (a quota
   * and a key's lineage): a quota counted in the tasks table then holds against parallel submissions on
   * every instance. `admit` reads through the transaction and throws to refuse.
   */
  async createAdmitted(
    lock: string,
    admit: (tx: TaskTransaction) => Promise<void>,
    kind: string,
    ownerKeyId: string,
    input?: unknown,
  ): Promise<Task> {
    return this.locked(lock, async (tx) => {
      await admit(tx);
      return insertTask(tx, kind, ownerKeyId, input);
    });
  }

  /**
   * Marks a task running unless its lineage already has `cap` tasks of these kinds running, on every
   * worker. Counted and written under the lineage's lock, so two workers cannot both take its last place.
   */
  async claimRunning(taskId: string, lineage: string, kinds: readonly string[], cap: number): Promise<Claim> {
    return this.locked(`tasks running:${lineage}`, async (tx) => {
      const [row] = await tx.$queryRaw<Array<{ n: number }>>`
        SELECT count(*)::int AS n FROM tasks
        WHERE status = 'running' AND id <> ${taskId} AND kind = ANY(${[...kinds]})
          AND owner_key_id IN (${lineageKeys(lineage)})`;
      if (Number(row?.n ?? 0) >= cap) return "busy";
      const { count } = await tx.task.updateMany({
        where: { id: taskId, status: { notIn: [...FINAL_STATUSES] } },
        data: { status: "running" },
      });
      return count === 0 ? "ended" : "running";
    });
  }

  /**
   * Runs `fn` in a transaction holding a lock on `name` (a PostgreSQL advisory lock, so on every instance;
   * PGlite runs transactions one at a time anyway) until it commits.
   */
  private locked<T>(name: string, fn: (tx: TaskTransaction) => Promise<T>): Promise<T> {
    return this.db.prisma.$transaction(
      async (tx) => {
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${name}, 0))`;
        return fn(tx);
      },
      { maxWait: LOCKED_TRANSACTION_MS, timeout: LOCKED_TRANSACTION_MS },
    );
  }

  /** Applies an update unless the task already ended (a cancelled task stays cancelled). */
  async update(id: string, update: TaskUpdate): Promise<Task | null> {
    const data: Prisma.TaskUpdateManyMutationInput = {};
    if (update.status) data.status = update.status;
    if (update.progress !== undefined) data.progress = Math.min(1, Math.max(0, update.progress));
    if (update.result !== undefined) data.result = json(update.result);
    if (update.error !== undefined) data.error = update.error === null ? null : toSafeText(update.error);
    if (update.usage !== undefined) data.usage = json(update.usage);
    if (update.status && FINAL_STATUSES.has(update.status)) data.completedAt = new Date();
    const { count } = await this.db.prisma.task.updateMany({
      where: { id, status: { notIn: [...FINAL_STATUSES] } },
      data,
    });
    return count === 0 ? null : this.get(id);
  }

  async get(id: string): Promise<Task | null> {
    const row = await this.db.prisma.task.findUnique({ where: { id } });
    return row ? toTask(row) : null;
  }

  /** A task as its owner sees it: another key's task is indistinguishable from a missing one. */
  async getForOwner(id: string, ownerKeyId: string | null): Promise<Task | null> {
    const task = await this.get(id);
    return task && task.ownerKeyId === ownerKeyId ? task : null;
  }

  /**
   * Tasks of these kinds pending or running for any key of the rotation lineage, on every instance (the
   * per-key cap counts them: a rotation brings no fresh room).
   */
  async countActive(lineage: string, kinds: readonly string[]): Promise<number> {
    const [row] = await this.db.prisma.$queryRaw<Array<{ n: number }>>`
      SELECT count(*)::int AS n FROM tasks
      WHERE status IN ('pending', 'running') AND kind = ANY(${[...kinds]})
        AND owner_key_id IN (${lineageKeys(lineage)})`;
    return Number(row?.n ?? 0);
  }

  async appendEvent(taskId: string, data: Record<string, unknown>): Promise<void> {
    await this.db.prisma.taskEvent.create({ data: { taskId, data: json(data)! } });
  }

  /** The task's events after `afterId` (all of them from 0n), oldest first. */
  async eventsAfter(taskId: string, afterId: bigint, limit = 500): Promise<TaskEventRow[]> {
    const rows = await this.db.prisma.taskEvent.findMany({
      where: { taskId, id: { gt: afterId } },
      orderBy: { id: "asc" },
      take: limit,
    });
    return rows.map((r) => ({ id: r.id, at: r.at, data: r.data as Record<string, unknown> }));
  }

  async listForOwner(ownerKeyId: string, kind: string, limit: number): Promise<Task[]> {
    const rows = await this.db.prisma.task.findMany({
      where: { ownerKeyId, kind },
      orderBy: { createdAt: "desc" },
      take: limit,
    });
    return rows.map(toTask);
  }
}

async function insertTask(
  client: TaskTransaction,
  kind: string,
  ownerKeyId: string | null,
  input: unknown,
  options: CreateOptions = {},
): Promise<Task> {
  const id = options.idPrefix
    ? `${options.idPrefix}_${randomBytes(6).toString("hex")}`
    : `task_${randomUUID().replaceAll("-", "")}`;
  const row = await client.task.create({ data: { id, kind, ownerKeyId, status: "pending", input: json(input) } });
  return toTask(row);
}

// Results carry upstream text (model output, error bodies): PostgreSQL's jsonb refuses \u0000 and a
// lone surrogate is not UTF-8, so strings are made safe rather than failing the task's save.
function json(value: unknown): Prisma.InputJsonValue | undefined {
  if (value === undefined) return undefined;
  return JSON.parse(JSON.stringify(value), (_key, v: unknown) =>
    typeof v === "string" ? toSafeText(v) : v,
  ) as Prisma.InputJsonValue;
}

/** A task row as the database holds it: a Task whose status is any string. */
function toTask(row: Omit<Task, "status"> & { status: string }): Task {
  return { ...row, status: row.status as TaskStatus };
}
