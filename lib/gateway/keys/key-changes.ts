import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { Database } from "../../db/client.ts";
import {
  assertNameFree,
  assertRoomForKey,
  DEFAULT_KEY_RULES,
  findChangeable,
  KeyRuleError,
  storable,
  withNameIndex,
} from "./key-rules.ts";
import { isOperatorScope, OPERATOR_SCOPES, SCOPE_AREAS, toKeyRecord, type KeyRecord } from "./record.ts";
import { generateKey } from "./secrets.ts";
import { keyTeamOf } from "../teams/team-changes.ts";
import { KEY_CACHE_SCOPES } from "../../llm/routing/config.ts";

/**
 * One model rule: an alias or provider/model, exact or with `*` for any run of characters. The
 * characters are those of model names (`openai/gpt-4.1`, `@cf/meta/llama-3:free`), nothing a page or a
 * log could misread.
 */
const modelPattern = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .regex(/^[A-Za-z0-9._:@/*+-]+$/, "a model rule holds only letters, digits, . _ : @ / + - and *");
const modelPatterns = z
  .array(modelPattern)
  .max(50)
  .transform((patterns) => [...new Set(patterns)]);

export const createKeyInput = z.object({
  name: storable(z.string().trim().min(1).max(100)),
  email: z.string().email().optional(),
  /** The team the key is for (id or name): with an email, that member's personal key for it; else the team's own. */
  team: z.string().trim().min(1).max(100).optional(),
  day: z.number().int().positive().optional(),
  minute: z.number().int().positive().optional(),
  concurrency: z.number().int().positive().optional(),
  /** Model tokens a minute and a UTC day (keys CLI --tokens-minute, --tokens-day). */
  tokensMinute: z.number().int().positive().optional(),
  tokensDay: z.number().int().positive().optional(),
  /** The response cache for the key's model calls without a Cache-Control of their own (keys CLI --cache-max-age, --semantic-cache). */
  cacheMaxAge: z.number().int().positive().max(31_536_000).optional(),
  cacheSemantic: z.boolean().default(false),
  /** Whose answers that policy reads and fills: the key's lineage, every key of its user, or of its team (--cache-scope). */
  cacheScope: z.enum(KEY_CACHE_SCOPES).default("key"),
  /** The routing file's guardrail policy for the key's model calls (keys CLI --guardrails). */
  guardrails: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, "a guardrail policy's name")
    .optional(),
  // Operator scopes are accepted here (the CLI and the loopback operator endpoint), never from the portal.
  scopes: z
    .array(z.enum([...SCOPE_AREAS, ...OPERATOR_SCOPES]))
    .max(50)
    .default([]),
  expiresAt: z.coerce.date().optional(),
  modelAllow: modelPatterns.default([]),
  modelDeny: modelPatterns.default([]),
});
export type CreateKeyInput = z.input<typeof createKeyInput>;

export type CreatedKey = { id: string; key: string; prefix: string; record: KeyRecord };

/** Issues a key. The full key is returned here once and is never stored. */
export async function createKey(
  db: Database,
  input: CreateKeyInput,
  actor: string,
  rules = DEFAULT_KEY_RULES,
): Promise<CreatedKey> {
  const data = createKeyInput.parse(input);
  const { key, hash, prefix } = generateKey();
  const id = `key_${randomUUID().replaceAll("-", "")}`;
  const row = await withNameIndex(() =>
    db.prisma.$transaction(async (tx) => {
      const user = data.email
        ? await tx.user.upsert({
            where: { email: data.email },
            create: { id: randomUUID(), email: data.email },
            update: {},
          })
        : null;
      if (user) {
        await assertRoomForKey(tx, user.id, rules);
        await assertNameFree(tx, user.id, data.name);
      }
      const teamId = data.team
        ? await keyTeamOf(tx, data.team, user?.id ?? null, data.scopes.includes("keys:admin"))
        : null;
      const created = await tx.apiKey.create({
        data: {
          id,
          teamId,
          name: data.name,
          prefix,
          hash,
          userId: user?.id ?? null,
          scopes: data.scopes,
          grantedScopes: data.scopes,
          lineageId: id,
          dayLimit: data.day ?? null,
          minuteLimit: data.minute ?? null,
          concurrencyLimit: data.concurrency ?? null,
          tokenMinuteLimit: data.tokensMinute ?? null,
          tokenDayLimit: data.tokensDay ?? null,
          cacheMaxAge: data.cacheMaxAge ?? null,
          guardrails: data.guardrails ?? null,
          cacheSemantic: data.cacheSemantic,
          cacheScope: data.cacheScope,
          modelAllow: data.modelAllow,
          modelDeny: data.modelDeny,
          expiresAt: data.expiresAt ?? null,
        },
      });
      await tx.auditLog.create({
        data: { actor, action: "key.create", target: id, detail: { name: data.name, prefix } },
      });
      return created;
    }),
  );
  return { id, key, prefix, record: toKeyRecord(row) };
}

/** Revokes a key; null when there is no such key (or, given an owner, none of theirs). Revoking twice is harmless. */
export async function revokeKey(db: Database, id: string, actor: string, owner?: string): Promise<KeyRecord | null> {
  const existing = await findChangeable(db, id, owner);
  if (!existing) return null;
  const row = await db.prisma.$transaction(async (tx) => {
    const updated = await tx.apiKey.update({ where: { id }, data: { status: "revoked" } });
    await tx.auditLog.create({ data: { actor, action: "key.revoke", target: id } });
    return updated;
  });
  return toKeyRecord(row);
}

export const renameKeyInput = z.object({ name: storable(z.string().trim().min(1).max(100)) });

export async function renameKey(
  db: Database,
  id: string,
  input: z.input<typeof renameKeyInput>,
  actor: string,
  owner?: string,
): Promise<KeyRecord | null> {
  const { name } = renameKeyInput.parse(input);
  const existing = await findChangeable(db, id, owner);
  if (!existing) return null;
  const row = await withNameIndex(() =>
    db.prisma.$transaction(async (tx) => {
      if (existing.userId && existing.kind === "client") await assertNameFree(tx, existing.userId, name, { keyId: id });
      const updated = await tx.apiKey.update({ where: { id }, data: { name } });
      await tx.auditLog.create({
        data: { actor, action: "key.rename", target: id, detail: { from: existing.name, to: name } },
      });
      return updated;
    }),
  );
  return toKeyRecord(row);
}

export const setScopesInput = z.object({ scopes: z.array(z.enum(SCOPE_AREAS)).max(50) });

/**
 * Sets the areas a key may call; an empty list means all of them. Operator scopes it holds stay. The
 * operator (no owner given) sets the grant as well; an owner may only narrow within the granted areas,
 * and cannot clear a granted list to "all".
 */
export async function setKeyScopes(
  db: Database,
  id: string,
  input: z.input<typeof setScopesInput>,
  actor: string,
  owner?: string,
): Promise<KeyRecord | null> {
  const areas = [...new Set(setScopesInput.parse(input).scopes)].sort();
  const existing = await findChangeable(db, id, owner);
  if (!existing) return null;
  const granted = existing.grantedScopes.filter((s) => !isOperatorScope(s));
  if (owner !== undefined && granted.length) {
    const beyond = areas.filter((s) => !granted.includes(s));
    if (!areas.length || beyond.length) {
      const asked = areas.length ? beyond.join(", ") : "every area";
      throw new KeyRuleError(
        `this key may call only ${granted.join(", ")} (set by the operator); it cannot be given ${asked}`,
      );
    }
  }
  const scopes = [...new Set([...areas, ...existing.scopes.filter(isOperatorScope)])].sort();
  const row = await db.prisma.$transaction(async (tx) => {
    const updated = await tx.apiKey.update({
      where: { id },
      data: owner === undefined ? { scopes, grantedScopes: scopes } : { scopes },
    });
    await tx.auditLog.create({
      data: { actor, action: "key.scopes", target: id, detail: { from: existing.scopes, to: scopes } },
    });
    return updated;
  });
  return toKeyRecord(row);
}

const limitValue = z.number().int().min(1).max(100_000_000).nullable();
export const setLimitsInput = z.object({
  day: limitValue,
  minute: limitValue,
  concurrency: limitValue,
  /** Model tokens a minute and a UTC day: null is no token limit; absent leaves them as they are. */
  tokensMinute: limitValue.optional(),
  tokensDay: limitValue.optional(),
});

/** An operator's per-key limits; null means the service default for that window. */
export async function setKeyLimits(
  db: Database,
  id: string,
  input: z.input<typeof setLimitsInput>,
  actor: string,
): Promise<KeyRecord | null> {
  const { day, minute, concurrency, tokensMinute, tokensDay } = setLimitsInput.parse(input);
  const existing = await db.prisma.apiKey.findUnique({ where: { id } });
  if (!existing) return null;
  const tokens = {
    ...(tokensMinute !== undefined && { tokenMinuteLimit: tokensMinute }),
    ...(tokensDay !== undefined && { tokenDayLimit: tokensDay }),
  };
  const row = await db.prisma.$transaction(async (tx) => {
    const updated = await tx.apiKey.update({
      where: { id },
      data: { dayLimit: day, minuteLimit: minute, concurrencyLimit: concurrency, ...tokens },
    });
    const from = {
      day: existing.dayLimit,
      minute: existing.minuteLimit,
      concurrency: existing.concurrencyLimit,
      ...(tokensMinute !== undefined && { tokensMinute: existing.tokenMinuteLimit }),
      ...(tokensDay !== undefined && { tokensDay: existing.tokenDayLimit }),
    };
    const to = {
      day,
      minute,
      concurrency,
      ...(tokensMinute !== undefined && { tokensMinute }),
      ...(tokensDay !== undefined && { tokensDay }),
    };
    await tx.auditLog.create({ data: { actor, action: "key.limits", target: id, detail: { from, to } } });
    return updated;
  });
  return toKeyRecord(row);
}

export const setCachePolicyInput = z.object({
  /** Seconds of answers the key's model calls read without asking; null: the cache only when a request asks. */
  maxAge: createKeyInput.shape.cacheMaxAge.unwrap().nullable(),
  semantic: z.boolean(),
  scope: z.enum(KEY_CACHE_SCOPES),
});

/** An operator's response-cache policy for a key (docs/cache.md); matching by meaning needs a max age. */
export async function setKeyCachePolicy(
  db: Database,
  id: string,
  input: z.input<typeof setCachePolicyInput>,
  actor: string,
): Promise<KeyRecord | null> {
  const { maxAge, semantic, scope } = setCachePolicyInput.parse(input);
  const to = { max_age: maxAge, semantic: maxAge !== null && semantic, scope };
  const existing = await db.prisma.apiKey.findUnique({ where: { id } });
  if (!existing) return null;
  const row = await db.prisma.$transaction(async (tx) => {
    const updated = await tx.apiKey.update({
      where: { id },
      data: { cacheMaxAge: to.max_age, cacheSemantic: to.semantic, cacheScope: to.scope },
    });
    const from = { max_age: existing.cacheMaxAge, semantic: existing.cacheSemantic, scope: existing.cacheScope };
    await tx.auditLog.create({ data: { actor, action: "key.cache", target: id, detail: { from, to } } });
    return updated;
  });
  return toKeyRecord(row);
}

export const setGuardrailsInput = z.object({
  /** A policy of the routing file's "guardrails"; null: none of its own (its team's or alias's then apply). */
  guardrails: createKeyInput.shape.guardrails.unwrap().nullable(),
});

/**
 * An operator's guardrail policy for a key (docs/guardrails.md). The caller checks the name against the
 * routing file: this records it, and audits the change.
 */
export async function setKeyGuardrails(
  db: Database,
  id: string,
  input: z.input<typeof setGuardrailsInput>,
  actor: string,
): Promise<KeyRecord | null> {
  const { guardrails } = setGuardrailsInput.parse(input);
  const existing = await db.prisma.apiKey.findUnique({ where: { id } });
  if (!existing) return null;
  const row = await db.prisma.$transaction(async (tx) => {
    const updated = await tx.apiKey.update({ where: { id }, data: { guardrails } });
    const detail = { from: existing.guardrails, to: guardrails };
    await tx.auditLog.create({ data: { actor, action: "key.guardrails", target: id, detail } });
    return updated;
  });
  return toKeyRecord(row);
}

export const setModelRulesInput = z.object({ allow: modelPatterns, deny: modelPatterns });

/**
 * An operator's model rules for a key (lib/llm/routing/model-rules.ts): the aliases or provider/model
 * patterns it may call (empty: any) and may never (deny wins).
 */
export async function setKeyModelRules(
  db: Database,
  id: string,
  input: z.input<typeof setModelRulesInput>,
  actor: string,
): Promise<KeyRecord | null> {
  const { allow, deny } = setModelRulesInput.parse(input);
  const existing = await db.prisma.apiKey.findUnique({ where: { id } });
  if (!existing) return null;
  const row = await db.prisma.$transaction(async (tx) => {
    const updated = await tx.apiKey.update({ where: { id }, data: { modelAllow: allow, modelDeny: deny } });
    const from = { allow: existing.modelAllow, deny: existing.modelDeny };
    await tx.auditLog.create({
      data: { actor, action: "key.models", target: id, detail: { from, to: { allow, deny } } },
    });
    return updated;
  });
  return toKeyRecord(row);
}

/** What an update over the keys API may change: each term given is set; null clears a limit or the expiry. */
export type KeyTermsPatch = {
  name?: string;
  scopes?: string[];
  limits?: { day?: number | null; minute?: number | null; concurrency?: number | null };
  tokens?: { minute?: number | null; day?: number | null };
  expiresAt?: Date | null;
};

/**
 * Changes a key's name, scopes (and the grant with them), limits, token limits and expiry at once, audited
 * as one `key.update` with what changed. The caller has checked the result gives no more rights than its own.
 */
export async function updateKeyTerms(
  db: Database,
  id: string,
  patch: KeyTermsPatch,
  actor: string,
): Promise<KeyRecord | null> {
  const existing = await db.prisma.apiKey.findUnique({ where: { id } });
  if (!existing || existing.kind !== "client") return null;
  const data = {
    ...(patch.name !== undefined && { name: patch.name }),
    ...(patch.scopes !== undefined && { scopes: patch.scopes, grantedScopes: patch.scopes }),
    ...(patch.limits?.day !== undefined && { dayLimit: patch.limits.day }),
    ...(patch.limits?.minute !== undefined && { minuteLimit: patch.limits.minute }),
    ...(patch.limits?.concurrency !== undefined && { concurrencyLimit: patch.limits.concurrency }),
    ...(patch.tokens?.minute !== undefined && { tokenMinuteLimit: patch.tokens.minute }),
    ...(patch.tokens?.day !== undefined && { tokenDayLimit: patch.tokens.day }),
    ...(patch.expiresAt !== undefined && { expiresAt: patch.expiresAt }),
  };
  const row = await withNameIndex(() =>
    db.prisma.$transaction(async (tx) => {
      if (patch.name !== undefined && existing.userId)
        await assertNameFree(tx, existing.userId, patch.name, { keyId: id });
      const updated = await tx.apiKey.update({ where: { id }, data });
      const from = Object.fromEntries(Object.keys(data).map((k) => [k, existing[k as keyof typeof existing]]));
      await tx.auditLog.create({
        data: { actor, action: "key.update", target: id, detail: JSON.parse(JSON.stringify({ from, to: data })) },
      });
      return updated;
    }),
  );
  return toKeyRecord(row);
}
