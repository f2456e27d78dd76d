// Prisma's codes for a server it cannot reach, one that closed the connection, and a connection timeout.
const UNREACHABLE_CODES = new Set(["P1001", "P1002", "P1017", "P2024"]);
// The driver's own, when an error reaches us without Prisma's wrapping (pg, net).
const SOCKET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "57P01", "57P03"]);

/**
 * Whether an error says the database cannot be reached (down, restarting, refusing connections) rather
 * than that the query was wrong: the first is a 503 the client may retry, the second a bug.
 */
export function isDatabaseUnreachable(err: unknown): boolean {
  for (let e = err, depth = 0; e && typeof e === "object" && depth < 5; depth++) {
    const { code, meta, cause } = e as {
      code?: unknown;
      meta?: { driverAdapterError?: { cause?: { kind?: unknown } } };
      cause?: unknown;
    };
    if (typeof code === "string" && (UNREACHABLE_CODES.has(code) || SOCKET_CODES.has(code))) return true;
    if (meta?.driverAdapterError?.cause?.kind === "DatabaseNotReachable") return true;
    e = cause;
  }
  return false;
}
