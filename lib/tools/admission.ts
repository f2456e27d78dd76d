import { GatewayError } from "../errors.ts";
import { acceptKey } from "../gateway/http/auth.ts";
import { admitKey, usageRecorder, type UsageRequest } from "../gateway/http/guard.ts";
import type { KeyRecord } from "../gateway/keys/record.ts";
import type { Runtime } from "../gateway/runtime/runtime.ts";
import type { AdmitToolCall } from "./tool.ts";

/** Where tool calls are metered: the endpoint that made them (route, area) and its request's id, or its task's. */
export type ToolCallScope = { route: string; area: string; requestId: string };

/**
 * The one rule for every surface that makes tool calls for a caller beyond the request the guard
 * admitted (an MCP batch, the agents of /v1/swarm and of research runs): each call is one more
 * request of the caller's key. It is admitted as the guard admits a request (admitKey: the monthly
 * budget with a hard stop, then the minute and day windows), a refusal being metered as a 429 and
 * thrown before any upstream call; an admitted call is metered as a request of its own (method
 * TOOL, at the scope's route and area), which the budget counts. A call holds no concurrency slot
 * of the key's: the request or task making it holds one already (a task, its per-key task slot)
 * and runs its calls a few at a time, so a batch is not refused for its own request's slot.
 * `keyOf` is read for every call, so a key revoked meanwhile stops a long task's calls.
 */
export function toolAdmission(
  rt: Runtime,
  keyOf: () => Promise<KeyRecord | null>,
  scope: ToolCallScope,
): AdmitToolCall {
  return async (tool) => {
    const key = acceptKey(await keyOf(), scope.area, true);
    const request: UsageRequest = {
      requestId: `${scope.requestId}:${tool}`,
      method: "TOOL",
      route: scope.route,
      area: scope.area,
      bytesIn: 0,
    };
    const record = usageRecorder(rt, key, request);
    const unslotted = { ...key, overrides: { ...key.overrides, concurrency: Number.MAX_SAFE_INTEGER } };
    (await admitKey(rt, unslotted, true, (refusal) => record(429, 0, undefined, undefined, refusal.message))).release();
    return (status, guardrails) => {
      // The row of this call says what the key's guardrails decided about its result.
      if (guardrails) request.guardrails = guardrails;
      record(status, 0);
    };
  };
}

/**
 * A task's key by the id the task keeps (a task may run on another process, long after its
 * request): the key's hash is read from the database once, then each call takes the record the
 * key cache holds, kept current by its refresh. Null when no key has the id.
 */
export function keyById(rt: Runtime, id: string): () => Promise<KeyRecord | null> {
  let hash: Promise<string | null> | undefined;
  return async () => {
    try {
      hash ??= rt.db.prisma.apiKey
        .findUnique({ where: { id }, select: { hash: true } })
        .then((row) => row?.hash ?? null);
      const known = await hash;
      return known === null ? null : await rt.keys.resolveHash(known);
    } catch (err) {
      // Read again on the next call; the agent is told the call failed, not why the database did.
      hash = undefined;
      rt.logger.error({ err, keyId: id }, "reading a task's key for a tool call failed");
      throw new GatewayError(503, "the key's limits cannot be checked right now; try again shortly");
    }
  };
}
