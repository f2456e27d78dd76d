import { randomUUID } from "node:crypto";
import type { Database } from "../../db/client.ts";
import { GatewayError } from "../../errors.ts";
import type { Runtime } from "../../gateway/runtime/runtime.ts";
import { PROVIDERS } from "../../upstream/llm-catalogue.ts";
import { redisCredentialEvents, type CredentialEvents } from "./owner-credential-events.ts";
import { SealError, SECRET_KEYS_VARIABLE, type SecretBox } from "./secret-box.ts";

/**
 * Provider keys an owner (a portal user; teams later) brings for their own calls. Sealed at rest by
 * SecretBox, bound to owner and provider; read back in plaintext only by credentialFor, for the router.
 */

/** Providers an owner may bring a key for: every catalogue provider that takes one (not the keyless local runner). */
export const KEYED_PROVIDERS: readonly string[] = PROVIDERS.filter((p) => !p.keyless).map((p) => p.name);

export const DEFAULT_LABEL = "default";

/** A provider key as an owner pastes it (PUT /v1/provider-keys and the portal's form alike). */
export const PROVIDER_SECRET = /^[\x21-\x7e]{12,4096}$/;
export const PROVIDER_SECRET_RULE = "the provider's API key, 12-4096 printable characters, no spaces";
/** What tells an owner's keys for one provider apart. */
export const CREDENTIAL_LABEL = /^[\w .-]{1,64}$/;
export const CREDENTIAL_LABEL_RULE = "a label is 1-64 letters, digits, spaces, _ . or -";

/** What an owner sees of a stored key: never the secret, only its last four characters. */
export type CredentialSummary = {
  provider: string;
  label: string;
  last4: string;
  createdAt: Date;
  updatedAt: Date;
  lastUsedAt: Date | null;
};

// The associated data of a sealed key: a value copied into another owner's (or provider's) row will not open.
const sealContext = (ownerId: string, provider: string) => `provider-credential\0${ownerId}\0${provider}`;

const SUMMARY = { provider: true, label: true, last4: true, createdAt: true, updatedAt: true, lastUsedAt: true };

/** Seals and stores `secret` under (owner, provider, label), replacing a key stored there; `created` says which. */
export async function storeCredential(
  db: Database,
  box: SecretBox,
  ownerId: string,
  provider: string,
  secret: string,
  label = DEFAULT_LABEL,
): Promise<{ created: boolean; credential: CredentialSummary }> {
  const where = { ownerId_provider_label: { ownerId, provider, label } };
  const existing = await db.prisma.providerCredential.findUnique({ where, select: { id: true } });
  const sealed = { sealedSecret: box.seal(secret, sealContext(ownerId, provider)), last4: secret.slice(-4) };
  const credential = await db.prisma.providerCredential.upsert({
    where,
    create: { id: randomUUID(), ownerId, provider, label, ...sealed },
    // A new secret starts unused.
    update: { ...sealed, lastUsedAt: null },
    select: SUMMARY,
  });
  return { created: !existing, credential };
}

export async function listCredentials(db: Database, ownerId: string): Promise<CredentialSummary[]> {
  return db.prisma.providerCredential.findMany({
    where: { ownerId },
    select: SUMMARY,
    orderBy: [{ provider: "asc" }, { label: "asc" }],
  });
}

/** Deletes the owner's key for (provider, label); false when there was none. */
export async function deleteCredential(
  db: Database,
  ownerId: string,
  provider: string,
  label = DEFAULT_LABEL,
): Promise<boolean> {
  const { count } = await db.prisma.providerCredential.deleteMany({ where: { ownerId, provider, label } });
  return count > 0;
}

type Loaded = { id: string; secret: string } | undefined;

/**
 * The key the router uses for an owner and provider: of several labels, the one stored most recently.
 * Opened under the context of the row it is read from, so a sealed value moved to another owner's row
 * throws SealError. A value sealed under an older key of GATEWAY_SECRET_KEYS is sealed again under
 * the current one as it is read, so an old key can be dropped once every owner's key has been used.
 */
export async function loadCredential(db: Database, box: SecretBox, ownerId: string, provider: string): Promise<Loaded> {
  const row = await db.prisma.providerCredential.findFirst({
    where: { ownerId, provider },
    orderBy: { updatedAt: "desc" },
    select: { id: true, sealedSecret: true },
  });
  if (!row) return undefined;
  const context = sealContext(ownerId, provider);
  const secret = box.open(row.sealedSecret, context);
  if (box.sealedWith(row.sealedSecret) !== box.currentKeyId) {
    await db.prisma.providerCredential.update({
      where: { id: row.id },
      data: { sealedSecret: box.seal(secret, context) },
    });
  }
  return { id: row.id, secret };
}

export type CredentialCacheOptions = {
  /** How long a read is served without asking the database again. */
  freshMs: number;
  /** Past freshMs, a read is still served (and refreshed in the background) until this age. */
  maxAgeMs: number;
  maxEntries: number;
  /** lastUsedAt is written at most this often per key per instance. */
  touchEveryMs: number;
  onError: (err: unknown, ownerId: string, provider: string) => void;
  /** Tells the other instances that an owner's key for a provider changed (they call `forget`). */
  announce?: (ownerId: string, provider: string) => void;
  now?: () => number;
};

type Entry = { loaded: Promise<Loaded>; at: number; refreshing: boolean; touchedAt: number };

/**
 * The owners' keys as one process serves them. credentialFor answers from memory: an LRU of
 * (owner, provider) → key or "none", both cached, so an owner who brought no key costs one read per
 * freshMs, not one per request. A read older than freshMs is answered at once and refreshed in the
 * background; only a miss (or one past maxAgeMs) waits on the database, and concurrent misses share
 * one read. Storing or deleting through this object forgets that entry at once on this instance and
 * announces it; other instances forget theirs on the announcement (Redis pub/sub, when REDIS_URL is
 * set), else see the change within freshMs.
 *
 * Without GATEWAY_SECRET_KEYS the feature is off: store, list and delete answer 503 naming the variable
 * (the operator's configuration is missing, as for any unconfigured service: requireCredential; not 409,
 * which would blame the caller's request), and credentialFor answers undefined.
 */
export class OwnerCredentials {
  readonly #db: Database;
  readonly #box: SecretBox | undefined;
  readonly #options: CredentialCacheOptions;
  readonly #now: () => number;
  readonly #entries = new Map<string, Entry>();
  /** Settles once this instance hears other instances' changes (or will not: no Redis); tests wait on it. */
  listening: Promise<unknown> = Promise.resolve();

  constructor(db: Database, box: SecretBox | undefined, options: CredentialCacheOptions) {
    this.#db = db;
    this.#box = box;
    this.#options = options;
    this.#now = options.now ?? Date.now;
  }

  async store(ownerId: string, provider: string, secret: string, label?: string) {
    const stored = await storeCredential(this.#db, this.#requireBox(), ownerId, provider, secret, label);
    this.#changed(ownerId, provider);
    return stored;
  }

  async list(ownerId: string): Promise<CredentialSummary[]> {
    this.#requireBox();
    return listCredentials(this.#db, ownerId);
  }

  async delete(ownerId: string, provider: string, label?: string): Promise<boolean> {
    this.#requireBox();
    const deleted = await deleteCredential(this.#db, ownerId, provider, label);
    this.#changed(ownerId, provider);
    return deleted;
  }

  /**
   * The owner's key for `provider` in plaintext, or undefined (none stored, the feature off, or a
   * stored key that no longer opens, reported to onError): the router then uses the operator's, as its
   * policy allows. Throws when the database fails on a miss (a cached answer is served meanwhile).
   */
  async credentialFor(ownerId: string, provider: string): Promise<string | undefined> {
    if (!this.#box) return undefined;
    const id = `${ownerId}\0${provider}`;
    const now = this.#now();
    let entry = this.#entries.get(id);
    if (entry && now - entry.at < this.#options.maxAgeMs) {
      this.#entries.delete(id);
      this.#entries.set(id, entry);
      if (now - entry.at >= this.#options.freshMs && !entry.refreshing) this.#refresh(id, entry, ownerId, provider);
    } else {
      entry = this.#load(id, ownerId, provider);
    }
    const loaded = await entry.loaded;
    if (loaded && now - entry.touchedAt >= this.#options.touchEveryMs) {
      entry.touchedAt = now;
      this.#db.prisma.providerCredential
        .updateMany({ where: { id: loaded.id }, data: { lastUsedAt: new Date(now) } })
        .catch((err: unknown) => this.#options.onError(err, ownerId, provider));
    }
    return loaded?.secret;
  }

  // A key that does not open is reported and served as none (for freshMs, as any answer); a database
  // failure is thrown, so the router decides what a request without an answer does.
  async #read(ownerId: string, provider: string): Promise<Loaded> {
    try {
      return await loadCredential(this.#db, this.#box!, ownerId, provider);
    } catch (err) {
      if (!(err instanceof SealError)) throw err;
      this.#options.onError(err, ownerId, provider);
      return undefined;
    }
  }

  #load(id: string, ownerId: string, provider: string): Entry {
    const entry: Entry = { loaded: this.#read(ownerId, provider), at: this.#now(), refreshing: false, touchedAt: 0 };
    // A failed read is not kept: the next request reads again rather than meeting it for freshMs.
    entry.loaded.catch(() => {
      if (this.#entries.get(id) === entry) this.#entries.delete(id);
    });
    this.#entries.set(id, entry);
    while (this.#entries.size > this.#options.maxEntries) this.#entries.delete(this.#entries.keys().next().value!);
    return entry;
  }

  #refresh(id: string, stale: Entry, ownerId: string, provider: string): void {
    stale.refreshing = true;
    this.#read(ownerId, provider).then(
      (loaded) => {
        // Only if nothing replaced or forgot the entry meanwhile (a store or delete on this instance).
        if (this.#entries.get(id) !== stale) return;
        const touchedAt = stale.touchedAt;
        this.#entries.set(id, { loaded: Promise.resolve(loaded), at: this.#now(), refreshing: false, touchedAt });
      },
      (err: unknown) => {
        stale.refreshing = false;
        this.#options.onError(err, ownerId, provider);
      },
    );
  }

  /** Drops the cached answer for an owner and provider: the next call reads the database. */
  forget(ownerId: string, provider: string): void {
    this.#entries.delete(`${ownerId}\0${provider}`);
  }

  #changed(ownerId: string, provider: string): void {
    this.forget(ownerId, provider);
    this.#options.announce?.(ownerId, provider);
  }

  #requireBox(): SecretBox {
    if (!this.#box)
      throw new GatewayError(
        503,
        `provider keys are not enabled on this gateway: the operator has to set ${SECRET_KEYS_VARIABLE}`,
      );
    return this.#box;
  }
}

// Registered, so the portal's pages (Next bundles these modules a second time) find the same one.
const SHARED = Symbol.for("gateway.owner-credentials");

/**
 * The runtime's one OwnerCredentials; the router calls `ownerCredentials(rt).credentialFor(userId, provider)`.
 * Kept on the runtime itself, not in a module's WeakMap: a key stored through the portal must clear
 * the cache the router reads in the same process. With REDIS_URL (and the feature on), changes are
 * announced to the other instances on a channel of their own; until that subscription is up, or
 * without Redis, other instances rely on freshMs.
 */
export function ownerCredentials(rt: Runtime): OwnerCredentials {
  const holder = rt as Runtime & { [SHARED]?: OwnerCredentials };
  return (holder[SHARED] ??= createOwnerCredentials(rt));
}

function createOwnerCredentials(rt: Runtime): OwnerCredentials {
  const box = rt.config.secretBox;
  const redisUrl = rt.config.redisUrl;
  let events: Promise<CredentialEvents | undefined> | undefined;
  const credentials: OwnerCredentials = new OwnerCredentials(rt.db, box, {
    freshMs: 30_000,
    maxAgeMs: 5 * 60_000,
    maxEntries: 10_000,
    touchEveryMs: 60_000,
    onError: (err, ownerId, provider) =>
      rt.logger.warn({ err, ownerId, provider }, "an owner's provider key could not be read or marked used"),
    announce: (ownerId, provider) =>
      void events
        ?.then((e) => e?.publish(ownerId, provider))
        .catch((err: unknown) => rt.logger.warn({ err }, "a provider key change could not be announced")),
  });
  if (box && redisUrl) {
    const warn = (err: unknown) => rt.logger.warn({ err }, "provider key changes: Redis failed");
    events = redisCredentialEvents(redisUrl, (o, p) => credentials.forget(o, p), warn).catch((err: unknown) => {
      warn(err);
      return undefined;
    });
    credentials.listening = events;
    rt.onClose(async () => (await events)?.close());
  }
  return credentials;
}
