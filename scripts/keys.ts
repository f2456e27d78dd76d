// Operator CLI: `npm run --silent keys -- create --name NAME [--email E] [--day N] [--minute N]
// [--concurrency N] [--tokens-minute N] [--tokens-day N] [--cache-max-age N [--semantic-cache] [--cache-scope key|user|team]] [--guardrails POLICY] [--scopes a,b] [--allow-models a,b] [--deny-models a,b]`, `keys -- list`, `keys -- revoke ID`, and the key requests the portal
// files: `keys -- requests`, `keys -- approve ID`, `keys -- decline ID`, and `keys -- grant-console EMAIL`
// (model consoles for an account before its key is approved); teams: `keys -- teams`, `create-org`,
// `create-team`, `add-member`, `remove-member`, `set-limits`, `set-guardrails`, `add-domain`, `remove-domain` (docs/teams.md). Goes through the running
// server's loopback operator endpoint when there is one (PGlite admits one process, and the server's
// key cache learns of the change at once), and straight to the database otherwise.
import { parseArgs } from "node:util";
import { loadConfig } from "../lib/config.ts";
import { openDatabase } from "../lib/db/client.ts";
import { DirectoryLockedError } from "../lib/db/directory-lock.ts";
import { applyMigrations } from "../lib/db/migrate.ts";
import { createKey, type CreateKeyInput, revokeKey } from "../lib/gateway/keys/key-changes.ts";
import { listKeys } from "../lib/gateway/keys/key-list.ts";
import { grantConsoleModels } from "../lib/gateway/keys/console-access.ts";
import { redisKeyEvents } from "../lib/gateway/keys/events.ts";
import {
  consoleGrantInput,
  decideForCli,
  decisionNotice,
  noAccount,
  notPending,
  OPERATOR_FILE,
  readOperatorEndpoint,
  requestsForCli,
} from "../lib/gateway/keys/operator.ts";
import { REQUEST_STATUSES } from "../lib/portal/admin/lists.ts";
import { isTeamCommand, runTeamCommand, type TeamCommand } from "../lib/gateway/teams/team-commands.ts";

const USAGE = `usage:
  keys create --name NAME [--email E] [--team TEAM] [--day N] [--minute N] [--concurrency N] [--scopes a,b] [--expires ISO-DATE]
              [--tokens-minute N] [--tokens-day N]       (model tokens, prompt and completion, a minute and a UTC day)
              [--cache-max-age N [--semantic-cache] [--cache-scope key|user|team]]
                                                 (the response cache for the key's model calls, and whose keys
                                                 share its answers: the key's lineage, its user's, its team's;
                                                 docs/cache.md)
              [--allow-models a,b] [--deny-models a,b]   (aliases or provider/model, * for any run; deny wins)
              [--guardrails POLICY]                      (a policy of the routing file's "guardrails" for the
                                                 key's model calls; docs/guardrails.md)
  keys list
  keys revoke ID
  keys requests [--status ${REQUEST_STATUSES.join("|")}] [--page N]
  keys approve ID [--note TEXT]
  keys decline ID [--reason TEXT]        (--note and --reason are one: the requester's note)
  keys grant-console EMAIL               (the account's consoles may call the model areas before a key)
  keys teams                             (organisations, their teams, members and limits)
  keys create-org --name NAME
  keys create-team --org ORG --name NAME
  keys add-member TEAM --email E [--role owner|admin|member|viewer]   (again to change a role; a new owner makes the old one an admin)
  keys remove-member TEAM --email E     (their personal keys for the team are revoked; the team's own stay)
  keys set-limits organisation|team|user ID|NAME|EMAIL [--minute N] [--day N] [--tokens-minute N] [--tokens-day N]
                                         (requests and model tokens a minute and a UTC day at that level; 0 clears a window)
              [--monthly-cost USD | --monthly-tokens N | --monthly-requests N] [--alert-only]
                                         (a budget across the level's keys a UTC month, refusing once used up unless
                                          --alert-only; alerts at 80 % and 100 %; 0 removes it)
  keys set-guardrails TEAM POLICY|--clear
                                         (the routing file's guardrail policy for the team's keys without their own;
                                          docs/guardrails.md)
  keys add-domain ORG DOMAIN [--require-sso] [--join-team TEAM]
                                         (a mail domain you verified as the organisation's: its addresses sign in only
                                          through OIDC with --require-sso; its users may ask to join TEAM)
  keys remove-domain DOMAIN`;

type Command =
  | { kind: "create"; input: CreateKeyInput }
  | { kind: "list" }
  | { kind: "revoke"; id: string }
  | { kind: "requests"; query: { status?: string; page?: string } }
  | { kind: "decide"; id: string; approve: boolean; note?: string }
  | { kind: "grant-console"; email: string }
  | { kind: "team"; command: TeamCommand; input: Record<string, unknown> };

function parse(argv: string[]): Command {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: "string" },
      email: { type: "string" },
      team: { type: "string" },
      org: { type: "string" },
      role: { type: "string" },
      day: { type: "string" },
      minute: { type: "string" },
      concurrency: { type: "string" },
      "tokens-minute": { type: "string" },
      "tokens-day": { type: "string" },
      "monthly-cost": { type: "string" },
      "monthly-tokens": { type: "string" },
      "monthly-requests": { type: "string" },
      "alert-only": { type: "boolean" },
      "require-sso": { type: "boolean" },
      "join-team": { type: "string" },
      "cache-max-age": { type: "string" },
      "semantic-cache": { type: "boolean" },
      "cache-scope": { type: "string" },
      guardrails: { type: "string" },
      clear: { type: "boolean" },
      scopes: { type: "string" },
      "allow-models": { type: "string" },
      "deny-models": { type: "string" },
      expires: { type: "string" },
      status: { type: "string" },
      page: { type: "string" },
      note: { type: "string" },
      reason: { type: "string" },
    },
  });
  const [verb, arg] = positionals;
  const int = (v: string | undefined, flag: string) => {
    if (v === undefined) return undefined;
    const n = Number(v);
    if (!Number.isInteger(n) || n <= 0) throw new Error(`--${flag} must be a positive integer`);
    return n;
  };
  const list = (v: string | undefined) =>
    v
      ? v
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean)
      : [];
  if (verb === "create") {
    if (!values.name) throw new Error("create needs --name");
    if (values["semantic-cache"] && values["cache-max-age"] === undefined)
      throw new Error("--semantic-cache needs --cache-max-age: the answers it matches are the cache's");
    if (values["cache-scope"] !== undefined && values["cache-max-age"] === undefined)
      throw new Error("--cache-scope needs --cache-max-age: it says whose keys share the policy's answers");
    return {
      kind: "create",
      input: {
        name: values.name,
        email: values.email,
        team: values.team,
        day: int(values.day, "day"),
        minute: int(values.minute, "minute"),
        concurrency: int(values.concurrency, "concurrency"),
        tokensMinute: int(values["tokens-minute"], "tokens-minute"),
        tokensDay: int(values["tokens-day"], "tokens-day"),
        cacheMaxAge: int(values["cache-max-age"], "cache-max-age"),
        cacheSemantic: values["semantic-cache"] === true,
        cacheScope: values["cache-scope"] as CreateKeyInput["cacheScope"],
        guardrails: values.guardrails,
        scopes: list(values.scopes) as CreateKeyInput["scopes"],
        expiresAt: values.expires,
        modelAllow: list(values["allow-models"]),
        modelDeny: list(values["deny-models"]),
      },
    };
  }
  if (verb === "list") return { kind: "list" };
  if (verb !== undefined && isTeamCommand(verb))
    return { kind: "team", command: verb, input: teamInput(verb, positionals.slice(1), values) };
  if (verb === "revoke" && arg) return { kind: "revoke", id: arg };
  if (verb === "requests") {
    const status = values.status;
    if (status !== undefined && !(REQUEST_STATUSES as readonly string[]).includes(status))
      throw new Error(`--status must be one of ${REQUEST_STATUSES.join(", ")}`);
    return { kind: "requests", query: { status, page: int(values.page, "page")?.toString() } };
  }
  if ((verb === "approve" || verb === "decline") && arg) {
    // The note the requester reads on their keys page (and in the decision mail); either name for it.
    if (values.note !== undefined && values.reason !== undefined) throw new Error("give --note or --reason, not both");
    const note = values.note ?? values.reason;
    if (note !== undefined && note.length > 1000) throw new Error("--note/--reason must be at most 1000 characters");
    return { kind: "decide", id: arg, approve: verb === "approve", note };
  }
  if (verb === "grant-console" && arg) {
    const grant = consoleGrantInput.safeParse({ email: arg });
    if (!grant.success) throw new Error(`grant-console: the address ${grant.error.issues[0]!.message}`);
    return { kind: "grant-console", email: grant.data.email };
  }
  throw new Error(USAGE);
}

/** A team command's body from the flags (the operator endpoint and team-changes.ts validate it). */
function teamInput(verb: TeamCommand, args: string[], values: Record<string, unknown>): Record<string, unknown> {
  const [arg, subject] = args;
  const need = (v: unknown, what: string) => {
    if (typeof v !== "string" || v === "") throw new Error(`${verb} needs ${what}`);
    return v;
  };
  // A window's limit; 0 clears it.
  const window = (flag: string) => {
    const v = values[flag];
    if (v === undefined) return undefined;
    const n = Number(v);
    if (!Number.isInteger(n) || n < 0) throw new Error(`--${flag} must be a whole number (0 clears it)`);
    return n === 0 ? null : n;
  };
  switch (verb) {
    case "teams":
      return {};
    case "create-org":
      return { name: need(values.name, "--name") };
    case "create-team":
      return { organisation: need(values.org, "--org"), name: need(values.name, "--name") };
    case "add-member":
      return { team: need(arg, "a TEAM"), email: need(values.email, "--email"), role: values.role };
    case "remove-member":
      return { team: need(arg, "a TEAM"), email: need(values.email, "--email") };
    case "set-limits":
      return {
        level: need(arg, "a level (organisation, team or user)"),
        subject: need(subject, "the organisation, team or user (its id or name; a user's email)"),
        minute: window("minute"),
        day: window("day"),
        tokensMinute: window("tokens-minute"),
        tokensDay: window("tokens-day"),
        budget: levelBudget(values),
      };
    case "set-guardrails":
      if (values.clear === true) {
        if (subject !== undefined) throw new Error("set-guardrails takes a POLICY or --clear, not both");
        return { team: need(arg, "a TEAM"), guardrails: null };
      }
      return { team: need(arg, "a TEAM"), guardrails: need(subject, "a POLICY (or --clear)") };
    case "add-domain":
      return {
        organisation: need(arg, "an ORGANISATION"),
        domain: need(subject, "a DOMAIN"),
        requireSso: values["require-sso"] === true,
        joinTeam: values["join-team"],
      };
    case "remove-domain":
      return { domain: need(arg, "a DOMAIN") };
  }
}

/** set-limits' monthly budget: --monthly-cost USD, --monthly-tokens N or --monthly-requests N (0 removes it), --alert-only. */
function levelBudget(values: Record<string, unknown>): Record<string, unknown> | null | undefined {
  const given = (["cost", "tokens", "requests"] as const).filter((m) => values[`monthly-${m}`] !== undefined);
  if (given.length > 1)
    throw new Error("a level has one monthly budget: give one of --monthly-cost, --monthly-tokens, --monthly-requests");
  const metric = given[0];
  if (!metric) {
    if (values["alert-only"]) throw new Error("--alert-only goes with a monthly budget (--monthly-cost N)");
    return undefined;
  }
  const n = Number(values[`monthly-${metric}`]);
  if (!Number.isFinite(n) || n < 0) throw new Error(`--monthly-${metric} must be a number (0 removes the budget)`);
  return n === 0 ? null : { metric, limit: n, hardStop: values["alert-only"] !== true };
}

type Output = unknown[];

type RequestList = Awaited<ReturnType<typeof requestsForCli>>;

/** A page of requests as lines; where more pages follow, stderr says how to get them. */
function requestLines(list: RequestList): Output {
  if (list.pages > list.page)
    process.stderr.write(
      `keys: page ${list.page} of ${list.pages} (${list.total} requests); --page ${list.page + 1} for more\n`,
    );
  return list.requests;
}

/** A decision as its line; a mail that failed is said on stderr (the decision stands). */
function decisionLine(id: string, decided: Awaited<ReturnType<typeof decideForCli>>): Output {
  if (!decided) throw new Error(notPending(id));
  const { error, ...line } = decided;
  if (error) process.stderr.write(`keys: the decision mail to ${line.email} could not be sent: ${String(error)}\n`);
  return [line];
}

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
  if (cmd.kind === "team") return (await call("POST", `/teams/${cmd.command}`, cmd.input)).lines as unknown[];
  if (cmd.kind === "create") return [await call("POST", "/keys", cmd.input)];
  if (cmd.kind === "list") return ((await call("GET", "/keys")).keys as unknown[]) ?? [];
  if (cmd.kind === "requests") {
    const query = new URLSearchParams(Object.entries(cmd.query).filter((kv): kv is [string, string] => !!kv[1]));
    return requestLines((await call("GET", `/requests?${query}`)) as RequestList);
  }
  if (cmd.kind === "decide") {
    const verb = cmd.approve ? "approve" : "decline";
    return [await call("POST", `/requests/${encodeURIComponent(cmd.id)}/${verb}`, { note: cmd.note })];
  }
  if (cmd.kind === "grant-console") return [await call("POST", "/console-grants", { email: cmd.email })];
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
    if (cmd.kind === "team") {
      const { lines, revoked } = await runTeamCommand(db, cmd.command, cmd.input, "cli", config.routing.guardrails);
      for (const record of revoked) await announce(config.redisUrl, record.hash);
      return lines;
    }
    if (cmd.kind === "create") {
      const created = await createKey(db, cmd.input, "cli", config);
      // Instances may hold the new key as unknown for a few seconds; the key channel clears that.
      await announce(config.redisUrl, created.record.hash);
      return [{ id: created.id, key: created.key, prefix: created.prefix }];
    }
    if (cmd.kind === "list") return await listKeys(db);
    if (cmd.kind === "requests") return requestLines(await requestsForCli(db, cmd.query));
    if (cmd.kind === "decide")
      return decisionLine(cmd.id, await decideForCli(db, decisionNotice(), cmd.id, cmd.approve, cmd.note, "cli"));
    if (cmd.kind === "grant-console") {
      const record = await grantConsoleModels(db, cmd.email, config.console.scopes, "cli");
      if (!record) throw new Error(noAccount(cmd.email));
      await announce(config.redisUrl, record.hash);
      return [{ id: record.id, email: cmd.email, scopes: record.scopes }];
    }
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
