import { randomBytes, randomUUID } from "node:crypto";
import type { Database } from "../db/client.ts";
import type { Prisma } from "../db/generated/client.ts";
import { toSafeText } from "../gateway/http/safe-text.ts";

export type TaskStatus = "pending" | "running" | "completed" | "failed" | "cancelled";
export const FINAL_STATUSES: ReadonlySet<TaskStatus> = new Set(["completed", "failed", "cancelled"]);

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

/** Task rows are the truth for every asynchronous job (batch, video, archive, orchestration). */
export class TaskStore {
  constructor(private readonly db: Database) {}

  async create(kind: string, ownerKeyId: string | null, input?: unknown, options: CreateOptions = {}): Promise<Task> {
    const id = options.idPrefix
      ? `${options.idPrefix}_${randomBytes(6).toString("hex")}`
      : `task_${randomUUID().replaceAll("-", "")}`;
    const row = await this.db.prisma.task.create({
      data: { id, kind, ownerKeyId, status: "pending", input: json(input) },
    });
    return toTask(row);
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

  /** Tasks of these kinds the key has pending or running, on every instance (the per-key cap counts them). */
  async countActive(ownerKeyId: string, kinds: readonly string[]): Promise<number> {
    return this.db.prisma.task.count({
      where: { ownerKeyId, kind: { in: [...kinds] }, status: { in: ["pending", "running"] } },
    });
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
