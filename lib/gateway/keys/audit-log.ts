import type { Database } from "../../db/client.ts";

export type AuditEntry = {
  id: string;
  actor: string;
  action: string;
  target: string | null;
  detail: unknown;
  at: string;
};

export async function listAudit(db: Database, limit = 100): Promise<AuditEntry[]> {
  const rows = await db.prisma.auditLog.findMany({ orderBy: { id: "desc" }, take: limit });
  return rows.map((r) => ({
    id: String(r.id),
    actor: r.actor,
    action: r.action,
    target: r.target,
    detail: r.detail,
    at: r.createdAt.toISOString(),
  }));
}
