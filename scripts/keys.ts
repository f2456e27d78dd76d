// Operator CLI: `npm run --silent keys -- create --name NAME [--email E] [--day N] [--minute N]
// [--concurrency N] [--scopes a,b]`, `keys -- list`, `keys -- revoke ID`. Goes through the running
// server's loopback operator endpoint when there is one (PGlite admits one process, and the server's
// key cache learns of the change at once), and straight to the database otherwise.
import { parseArgs } from "node:util";
import { loadConfig } from "../lib/config.ts";
import { openDatabase } from "../lib/db/client.ts";
import { DirectoryLockedError } from "../lib/db/directory-lock.ts";
import { applyMigrations } from "../lib/db/migrate.ts";
import { createKey, listKeys, revokeKey, type CreateKeyInput } from "../lib/gateway/keys/admin.ts";
import { redisKeyEvents } from "../lib/gateway/keys/events.ts";
import { OPERATOR_FILE, readOperatorEndpoint } from "../lib/gateway/keys/operator.ts";

const USAGE = `usage:
  keys create --name NAME [--email E] [--day N] [--minute N] [--concurrency N] [--scopes a,b] [--expires ISO-DATE]
  keys list
  keys revoke ID`;

type Command = { kind: "create"; input: CreateKeyInput } | { kind: "list" } | { kind: "revoke"; id: string };

function parse(argv: string[]): Command {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: "string" },
      email: { type: "string" },
      day: { type: "string" },
      minute: { type: "string" },
      concurrency: { type: "string" },
      scopes: { type: "string" },
      expires: { type: "string" },
    },
  });
  const [verb, arg] = positionals;
  const int = (v: string | undefined, flag: string) => {
    if (v === undefined) return undefined;
    const n = Number(v);
    if (!Number.isInteger(n) || n <= 0) throw new Error(`--${flag} must be a positive integer`);
    return n;
  };
  if (verb === "create") {
    if (!values.name) throw new Error("create needs --name");
    return {
      kind: "create",
      input: {
        name: values.name,
        email: values.email,
        day: int(values.day, "day"),
        minute: int(values.minute, "minute"),
        concurrency: int(values.concurrency, "concurrency"),
        scopes: values.scopes
          ? (values.scopes
              .split(",")
              .map((s) => s.trim())
              .filter(Boolean) as CreateKeyInput["scopes"])
          : [],
        expiresAt: values.expires,
      },
    };
  }
  if (verb === "list") return { kind: "list" };
  if (verb === "revoke" && arg) return { kind: "revoke", id: arg };
  throw new Error(USAGE);
}

type Output = unknown[];

async function viaServer(cmd: Command, dataDir: string): Promise<Output | null> {
  const endpoint = readOperatorEndpoint(dataDir);
  if (!endpoint) return null;
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(endpoint.url + path, {
      method,
      headers: { authorization: `Bearer ${endpoint.token}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    const json = (await res.json()) as Record<string, unknown>;
    if (!res.ok) throw new Error(String(json.error ?? `server answered ${res.status}`));
    return json;
  };
  try {
    await fetch(endpoint.url, { signal: AbortSignal.timeout(2_000) });
  } catch {
    return null; // A file left by a server that is no longer running.
  }
  if (cmd.kind === "create") return [await call("POST", "/keys", cmd.input)];
  if (cmd.kind === "list") return ((await call("GET", "/keys")).keys as unknown[]) ?? [];
  return [await call("POST", `/keys/${encodeURIComponent(cmd.id)}/revoke`)];
}

/** Tells running instances (over Redis, when there is one) that a key changed; without Redis their poll sees it. */
async function announce(redisUrl: string | undefined, hash: string): Promise<void> {
  if (!redisUrl) return;
  const events = await redisKeyEvents(redisUrl, null, () => {});
  await events.publish(hash);
  await events.close();
}

async function direct(cmd: Command): Promise<Output> {
  const config = loadConfig();
  const db = await openDatabase(config).catch((err: unknown) => {
    if (!(err instanceof DirectoryLockedError)) throw err;
    // A live server holds the database but could not be reached: opening it too would corrupt it.
    throw new Error(
      `the database in ${err.dir} is held by process ${err.holder.pid}, whose operator endpoint ` +
        `(${config.dataDir}/${OPERATOR_FILE}) is missing or not answering; restart that server, or stop it and run this again`,
    );
  });
  try {
    await applyMigrations(db);
    if (cmd.kind === "create") {
      const created = await createKey(db, cmd.input, "cli", config);
      // Instances may hold the new key as unknown for a few seconds; the key channel clears that.
      await announce(config.redisUrl, created.record.hash);
      return [{ id: created.id, key: created.key, prefix: created.prefix }];
    }
    if (cmd.kind === "list") return await listKeys(db);
    const record = await revokeKey(db, cmd.id, "cli");
    if (!record) throw new Error(`no key with id ${cmd.id}`);
    await announce(config.redisUrl, record.hash);
    return [{ id: record.id, status: record.status }];
  } finally {
    await db.close();
  }
}

async function main() {
  const cmd = parse(process.argv.slice(2));
  const { dataDir } = loadConfig();
  const lines = (await viaServer(cmd, dataDir)) ?? (await direct(cmd));
  for (const line of lines) process.stdout.write(`${JSON.stringify(line)}\n`);
}

main().catch((err: unknown) => {
  const message = err instanceof Error ? err.message : String(err);
  process.stderr.write(`keys: ${message}\n`);
  process.exit(1);
});
