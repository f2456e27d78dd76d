import { randomBytes, timingSafeEqual } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { createAdaptorServer, type ServerType } from "@hono/node-server";
import { Hono } from "hono";
import { z, ZodError } from "zod";
import type { Database } from "../../db/database.ts";
import { isProcessAlive } from "../../db/directory-lock.ts";
import { keyRequestsPage, requestListParams } from "../../portal/admin/lists.ts";
import { loadMailSettings, loadPortalUrl } from "../../portal/config.ts";
import { decideAndTell, type DecisionNotice } from "../../portal/keys/decision.ts";
import { createMailer } from "../../portal/mail.ts";
import { makePrivateDir } from "../../private-dir.ts";
import { createKey, revokeKey, type CreateKeyInput } from "./key-changes.ts";
import { listKeys } from "./key-list.ts";
import { isTeamCommand, runTeamCommand } from "../teams/team-commands.ts";
import { TeamChangeError } from "../teams/team-changes.ts";
import { KeyRuleError } from "./key-rules.ts";
import { grantConsoleModels } from "./console-access.ts";
import type { Runtime } from "../runtime/runtime.ts";
import { isUnsafeText } from "../http/safe-text.ts";

export const OPERATOR_FILE = "operator.json";

/** `keys grant-console EMAIL`: the account whose model consoles the operator opens. */
export const consoleGrantInput = z.object({
  email: z
    .string()
    .trim()
    .min(3, "is too short to be one")
    .max(320, "is longer than 320 characters")
    .refine((v) => !isUnsafeText(v), "must not contain NUL characters or unpaired surrogates"),
});

export const noAccount = (email: string) => `no account has the address ${email}: they sign in once first`;

export type OperatorEndpoint = { url: string; token: string; pid: number };

/** The admin area's queue of key requests (keyRequestsPage), a page at a time, as the keys CLI prints it. */
export async function requestsForCli(db: Database, query: Record<string, string | undefined>) {
  const list = await keyRequestsPage(db, requestListParams.parse(query));
  return {
    requests: list.rows.map((r) => ({
      id: r.id,
      name: r.name,
      email: r.user.email,
      status: r.status,
      use_type: r.useType,
      intended_use: r.intendedUse,
      organisation: r.organisation,
      scopes: r.scopes,
      expires_at: r.expiresAt?.toISOString() ?? null,
      created_at: r.createdAt.toISOString(),
      decided_by: r.decidedBy,
      decided_at: r.decidedAt?.toISOString() ?? null,
      note: r.note,
    })),
    page: list.page,
    pages: list.pages,
    total: list.total,
  };
}

export const requestIdParam = z
  .string()
  .min(1)
  .max(100)
  .refine((v) => !isUnsafeText(v), "must not contain NUL characters or unpaired surrogates");
export const decisionBody = z.object({ note: z.string().max(1000).optional() });

/** Mail as the portal sends it (SMTP_*, EMAIL_FROM; links to NEXTAUTH_URL or PUBLIC_BASE_URL), for decisions made here. */
export function decisionNotice(): DecisionNotice {
  return { mailer: createMailer(loadMailSettings()), portalUrl: loadPortalUrl() };
}

/**
 * The admin area's decision (decideAndTell: the requester mailed when this server sends mail) for the
 * keys CLI. Null when the request is not pending.
 */
export async function decideForCli(
  db: Database,
  notice: DecisionNotice,
  id: string,
  approve: boolean,
  note: string | undefined,
  actor: string,
) {
  const told = await decideAndTell(db, notice, requestIdParam.parse(id), { approve, note }, actor);
  if (!told) return null;
  const { request, mail, error } = told;
  return { id: request.id, status: request.status, email: request.user.email, note: request.note, mail, error };
}

export const notPending = (id: string) => `no pending key request with id ${id} (decided already, or unknown)`;

/**
 * Key administration for the CLI while a server owns the database (PGlite admits one process).
 * Bound to loopback on a random port; the address and a fresh token go to DATA_DIR/operator.json,
 * readable only by the operator's user. Changes go through this process, so its key cache is updated
 * at once and other instances hear of revocations on the Redis key channel.
 */
export function operatorApp(rt: Runtime, token: string): Hono {
  const app = new Hono();
  const expected = Buffer.from(`Bearer ${token}`);
  app.use(async (c, next) => {
    const given = Buffer.from(c.req.header("authorization") ?? "");
    if (given.length !== expected.length || !timingSafeEqual(given, expected))
      return c.json({ error: "operator token required" }, 401);
    return next();
  });
  app.get("/keys", async (c) => c.json({ keys: await listKeys(rt.db) }));
  app.post("/keys", async (c) => {
    const input = (await c.req.json()) as CreateKeyInput;
    // A policy the routing file does not declare would refuse every model call of the key: said now instead.
    if (input.guardrails !== undefined && !rt.config.routing.guardrails.has(input.guardrails))
      return c.json({ error: `guardrails: no policy "${input.guardrails}" in the routing file` }, 400);
    const created = await createKey(rt.db, input, "operator-cli", rt.config);
    rt.keys.remember(created.record);
    // Other instances may hold this key as unknown for a few seconds: the key channel clears that.
    await rt.keyEvents.publish(created.record.hash);
    return c.json({ id: created.id, key: created.key, prefix: created.prefix }, 201);
  });
  app.post("/keys/:id/revoke", async (c) => {
    if (isUnsafeText(c.req.param("id")))
      return c.json({ error: "id: must not contain NUL characters or unpaired surrogates" }, 400);
    const record = await revokeKey(rt.db, c.req.param("id"), "operator-cli");
    if (!record) return c.json({ error: `no key with id ${c.req.param("id")}` }, 404);
    rt.keys.remember(record);
    await rt.keyEvents.publish(record.hash);
    return c.json({ id: record.id, status: record.status });
  });
  app.get("/requests", async (c) => c.json(await requestsForCli(rt.db, c.req.query())));
  let notice: DecisionNotice | undefined;
  for (const verb of ["approve", "decline"] as const) {
    app.post(`/requests/:id/${verb}`, async (c) => {
      const id = c.req.param("id");
      const { note } = decisionBody.parse(await c.req.json());
      notice ??= decisionNotice();
      const decided = await decideForCli(rt.db, notice, id, verb === "approve", note, "operator-cli");
      if (!decided) return c.json({ error: notPending(id) }, 404);
      const { error, ...line } = decided;
      if (error) rt.logger.error({ err: error, request: id }, "key decision mail failed");
      return c.json(line);
    });
  }
  app.post("/console-grants", async (c) => {
    const { email } = consoleGrantInput.parse(await c.req.json());
    const record = await grantConsoleModels(rt.db, email, rt.config.console.scopes, "operator-cli");
    if (!record) return c.json({ error: noAccount(email) }, 404);
    rt.keys.remember(record);
    await rt.keyEvents.publish(record.hash);
    return c.json({ id: record.id, email, scopes: record.scopes });
  });
  app.post("/teams/:command", async (c) => {
    const command = c.req.param("command");
    if (!isTeamCommand(command)) return c.json({ error: `no team command ${command}` }, 404);
    const policies = rt.config.routing.guardrails;
    const { lines, revoked } = await runTeamCommand(rt.db, command, await c.req.json(), "operator-cli", policies);
    for (const record of revoked) {
      rt.keys.remember(record);
      await rt.keyEvents.publish(record.hash);
    }
    // This instance applies the change at once; others within their refresh interval.
    await Promise.all([rt.levels.refresh(), rt.budgets.refresh()]);
    return c.json({ lines });
  });
  app.onError((err, c) => {
    if (err instanceof ZodError || err instanceof SyntaxError) return c.json({ error: err.message }, 400);
    if (err instanceof KeyRuleError) return c.json({ error: err.message }, 409);
    if (err instanceof TeamChangeError) return c.json({ error: err.message }, err.status);
    rt.logger.error({ err }, "operator request failed");
    return c.json({ error: "operator request failed" }, 500);
  });
  return app;
}

export async function startOperatorServer(rt: Runtime): Promise<{ close(): Promise<void> }> {
  const token = randomBytes(32).toString("hex");
  const server: ServerType = createAdaptorServer({ fetch: operatorApp(rt, token).fetch });
  // Exclusive: in a cluster (`npm run cluster`) a worker's listen is otherwise shared through the primary,
  // and each process's port 0 on loopback would be one port, the web servers' own when PORT=0.
  await new Promise<void>((resolve) => server.listen({ port: 0, host: "127.0.0.1", exclusive: true }, resolve));
  server.unref();
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  const file = path.join(rt.config.dataDir, OPERATOR_FILE);
  makePrivateDir(rt.config.dataDir);
  const endpoint: OperatorEndpoint = { url: `http://127.0.0.1:${port}`, token, pid: process.pid };
  const owner = publishOperatorEndpoint(file, endpoint);
  if (owner !== process.pid) {
    rt.logger.warn(
      { file, owner },
      "another running gateway publishes the operator endpoint for this DATA_DIR; the keys CLI reaches that one",
    );
    await new Promise<void>((resolve) => server.close(() => resolve()));
    return { close: async () => {} };
  }
  return {
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      // Another instance may have taken the file over since; only remove our own.
      if (readOperatorEndpoint(rt.config.dataDir)?.token === token) fs.rmSync(file, { force: true });
    },
  };
}

/**
 * Writes operator.json unless a live process already owns it (several instances may share a DATA_DIR
 * on PostgreSQL): the first one keeps it until it stops. Returns the owner's pid. The file is written
 * whole under a temporary name and linked or renamed into place, so the CLI never reads half of it.
 */
function publishOperatorEndpoint(file: string, endpoint: OperatorEndpoint): number {
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, JSON.stringify(endpoint), { mode: 0o600 });
  try {
    fs.linkSync(temp, file);
    return process.pid;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    const current = readOperatorEndpoint(path.dirname(file));
    // Our own pid here is a previous process's (a restarted container): stale, like a dead pid.
    if (current && current.pid !== process.pid && isProcessAlive(current.pid)) return current.pid;
    fs.renameSync(temp, file);
    return process.pid;
  } finally {
    fs.rmSync(temp, { force: true });
  }
}

export function readOperatorEndpoint(dataDir: string): OperatorEndpoint | null {
  try {
    return JSON.parse(fs.readFileSync(path.join(dataDir, OPERATOR_FILE), "utf8")) as OperatorEndpoint;
  } catch {
    return null;
  }
}
