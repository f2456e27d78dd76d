import { randomUUID } from "node:crypto";
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
  createdAt: Date;
  updatedAt: Date;
  completedAt: Date | null;
};

export type TaskUpdate = { status?: TaskStatus; progress?: number; result?: unknown; error?: string | null };

/** Task rows are the truth for every asynchronous job (batch, video, archive, orchestration). */
export class TaskStore {
  constructor(private readonly db: Database) {}

  async create(kind: string, ownerKeyId: string | null, input?: unknown): Promise<Task> {
    const row = await this.db.prisma.task.create({
      data: { id: `task_${randomUUID().replaceAll("-", "")}`, kind, ownerKeyId, status: "pending", input: json(input) },
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
