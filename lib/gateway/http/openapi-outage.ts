/** What a keyed operation answers while the database is away (see errorAnswer and isDatabaseUnreachable). */
export const DATABASE_OUTAGE_RESPONSE = {
  description:
    "The database is unreachable: a key this instance has not seen yet can be neither accepted nor refused. Retry after Retry-After seconds.",
  headers: { "Retry-After": { schema: { type: "integer" }, description: "Seconds to wait before retrying" } },
  content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
};

type Operation = { "x-gateway-auth"?: string; responses?: Record<string, unknown> };

/**
 * Declares the database-down 503 on every operation that checks a key (modes "key" and "optional"),
 * unless the operation declares its own 503 already. Changes the document in place and returns it.
 */
export function withDatabaseOutage<T extends { paths?: object }>(document: T): T {
  for (const item of Object.values(document.paths ?? {}) as object[])
    for (const operation of Object.values(item) as Operation[]) {
      if (typeof operation !== "object" || !operation?.responses) continue;
      const auth = operation["x-gateway-auth"];
      if ((auth === "key" || auth === "optional") && !operation.responses["503"])
        operation.responses["503"] = DATABASE_OUTAGE_RESPONSE;
    }
  return document;
}
