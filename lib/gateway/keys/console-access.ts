import type { Database } from "../../db/client.ts";
import { consoleKeyFor } from "./console-key.ts";
import { setKeyScopes } from "./key-changes.ts";
import { decideByPolicy, type KeyApprovalPolicy } from "./approval.ts";
import { SCOPE_AREAS, type KeyRecord, type ScopeArea } from "./record.ts";

/**
 * The areas whose calls spend language-model tokens: llm (with the compatibility surfaces under its
 * scope: chat completions, responses, messages, embeddings), generate, orchestrate, swarm, and utils
 * (its summarize). Every sign-up gets a console, so these wait for the operator's approval.
 */
export const MODEL_AREAS: readonly ScopeArea[] = ["generate", "llm", "orchestrate", "swarm", "utils"];

/** The 403 of a console call to a model area before its user is approved. */
export const modelsWithheldMessage = (area: string) =>
  `model consoles open once your key request is approved: '${area}' calls language models, ` +
  `which a console may use only after an operator approved a key for this account (request one at /keys/request)`;

const withheldRecords = new WeakMap<KeyRecord, KeyRecord>();

/**
 * The console key with the model areas it would have withheld (the guard refuses them, saying why). One
 * object per cached record, so the session's requests allocate nothing.
 */
export function withModelsWithheld(record: KeyRecord): KeyRecord {
  let narrowed = withheldRecords.get(record);
  if (!narrowed) {
    const areas: readonly string[] = record.scopes.length ? record.scopes : SCOPE_AREAS;
    narrowed = { ...record, withheld: MODEL_AREAS.filter((a) => areas.includes(a)) };
    withheldRecords.set(record, narrowed);
  }
  return narrowed;
}

/**
 * Whether a user's console may call the model areas. At once where the policy would approve their key
 * request at once (KEY_APPROVAL=auto, or an address at one of KEY_APPROVAL_DOMAINS); otherwise once an
 * operator approved a request of theirs that is still to be picked up, while they hold a working client
 * key, or when the operator opened their console (grantConsoleModels: its own areas, set explicitly).
 * A revoked or expired key no longer counts: revoking someone's keys closes their model consoles too.
 * An operator's own consoles (an address in `operators`, as the portal decides who is one) are open:
 * they approve everyone else.
 */
export async function consoleModelsOpen(
  db: Database,
  userId: string,
  policy: KeyApprovalPolicy,
  operators: ReadonlySet<string> = new Set(),
  now = new Date(),
): Promise<boolean> {
  if (policy.mode === "auto") return true;
  const unexpired = { OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] };
  const user = await db.prisma.user.findUnique({
    where: { id: userId },
    select: {
      email: true,
      requests: { where: { status: "approved", keyId: null, ...unexpired }, select: { id: true }, take: 1 },
      keys: {
        where: {
          status: "active",
          OR: [
            { kind: "client", ...unexpired },
            { kind: "console", NOT: { scopes: { isEmpty: true } } },
          ],
        },
        select: { id: true },
        take: 1,
      },
    },
  });
  if (!user) return false;
  return (
    decideByPolicy(policy, user.email).approved ||
    (!!user.email && operators.has(user.email.toLowerCase())) ||
    user.requests.length > 0 ||
    user.keys.length > 0
  );
}

/**
 * The operator opens a user's model consoles ahead of an approved key (`npm run keys -- grant-console
 * EMAIL`): their console key (made now if they never used one) gets the console areas as its own,
 * audited as a scope change. An operator's own setting on a key wins, as with its limits; the key keeps
 * those areas if CONSOLE_KEY_SCOPES changes later. Null when no account has the address.
 */
export async function grantConsoleModels(
  db: Database,
  email: string,
  consoleAreas: readonly string[],
  actor: string,
): Promise<KeyRecord | null> {
  // next-auth stores the address lowercased; an account the CLI made may keep the case it was given.
  const user = await db.prisma.user.findFirst({
    where: { email: { equals: email.trim(), mode: "insensitive" } },
    orderBy: { createdAt: "asc" },
  });
  if (!user) return null;
  const key = await consoleKeyFor(db, user.id);
  const scopes = (consoleAreas.length ? consoleAreas : SCOPE_AREAS) as ScopeArea[];
  return setKeyScopes(db, key.id, { scopes }, actor);
}
