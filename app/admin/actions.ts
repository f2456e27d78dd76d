"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { getGateway } from "@/lib/instance.ts";
import {
  createKey,
  revokeKey,
  setCachePolicyInput,
  setGuardrailsInput,
  setKeyCachePolicy,
  setKeyGuardrails,
  setKeyLimits,
  setKeyModelRules,
  setModelRulesInput,
  updateKeyTerms,
} from "@/lib/gateway/keys/key-changes.ts";
import { KeyRuleError } from "@/lib/gateway/keys/key-rules.ts";
import { isOperatorScope, SCOPE_AREAS } from "@/lib/gateway/keys/record.ts";
import { expiryFromDay, lastDay } from "@/lib/portal/keys/expiry-day.ts";
import { chosenScopes } from "@/lib/portal/keys/scope-choice.ts";
import { formIssue, parseForm } from "@/lib/portal/forms/form-issue.ts";
import { getPortal } from "@/lib/portal/sign-in/auth.ts";
import { decideAndTell } from "@/lib/portal/keys/decision.ts";
import { publishKeyChange } from "@/lib/portal/keys/publish-change.ts";
import { currentSession } from "@/lib/portal/sign-in/session.ts";

export type AdminActionState = { error?: string; message?: string };

async function operator() {
  const session = await currentSession();
  if (!session?.user.operator) throw new Error("operators only");
  const { rt } = await getGateway();
  return { rt, actor: session.user.email ?? `user:${session.user.id}` };
}

const decisionForm = z.object({
  id: z.string().min(1).max(100),
  decision: z.enum(["approve", "decline"]),
  note: z.string().max(1000).optional(),
});

export async function decideRequest(_previous: AdminActionState, form: FormData): Promise<AdminActionState> {
  const { rt, actor } = await operator();
  const parsed = decisionForm.safeParse(Object.fromEntries(form));
  if (!parsed.success) return { error: "invalid decision" };
  const { id, decision, note } = parsed.data;
  const { mailer, config } = await getPortal();
  const told = await decideAndTell(
    rt.db,
    { mailer, portalUrl: config.url },
    id,
    { approve: decision === "approve", note },
    actor,
  );
  revalidatePath("/admin", "layout");
  if (!told) return { error: "this request was decided already" };
  const done = decision === "approve" ? "Approved" : "Declined";
  if (told.mail === "failed") {
    rt.logger.error({ err: told.error, request: id }, "key decision mail failed");
    return { message: `${done}; the notification mail could not be sent.` };
  }
  return { message: `${done}.` };
}

export async function revokeAnyKey(_previous: AdminActionState, form: FormData): Promise<AdminActionState> {
  const { rt, actor } = await operator();
  const parsed = z.object({ id: z.string().min(1).max(100) }).safeParse(Object.fromEntries(form));
  if (!parsed.success) return { error: "invalid key id" };
  const record = await revokeKey(rt.db, parsed.data.id, actor);
  if (!record) return { error: "no such key" };
  await publishKeyChange(rt, record);
  revalidatePath("/admin", "layout");
  return { message: "Revoked." };
}

// An empty field means "the service default" for that window.
const limitField = z.preprocess(
  (v) => (v === "" || v === undefined ? null : Number(v)),
  z.number().int().min(1).max(100_000_000).nullable(),
);
const limitsForm = z.object({
  id: z.string().min(1).max(100),
  day: limitField,
  minute: limitField,
  concurrency: limitField,
  // Empty: no token limit (there is no default for tokens).
  tokensMinute: limitField,
  tokensDay: limitField,
});

export async function setLimits(_previous: AdminActionState, form: FormData): Promise<AdminActionState> {
  const { rt, actor } = await operator();
  const parsed = limitsForm.safeParse(Object.fromEntries(form));
  if (!parsed.success)
    return {
      error:
        "limits must be whole numbers from 1 to 100,000,000, or empty for the default (for tokens: for no token limit)",
    };
  const { id, ...limits } = parsed.data;
  const record = await setKeyLimits(rt.db, id, limits, actor);
  if (!record) return { error: "no such key" };
  await publishKeyChange(rt, record);
  revalidatePath("/admin", "layout");
  return { message: "Limits saved." };
}

const guardrailsForm = z.object({
  id: z.string().min(1).max(100),
  // Empty: none of its own (its team's or its alias's policy then applies).
  guardrails: z.preprocess((v) => (v === "" || v === undefined ? null : v), setGuardrailsInput.shape.guardrails),
});

export async function setGuardrails(_previous: AdminActionState, form: FormData): Promise<AdminActionState> {
  const { rt, actor } = await operator();
  const parsed = guardrailsForm.safeParse(Object.fromEntries(form));
  if (!parsed.success) return { error: "choose a policy of the routing file, or none" };
  const { id, guardrails } = parsed.data;
  // A policy the routing file does not declare would refuse every model call of the key: said now instead.
  if (guardrails !== null && !rt.config.routing.guardrails.has(guardrails))
    return { error: `the routing file has no guardrail policy "${guardrails}"` };
  const record = await setKeyGuardrails(rt.db, id, { guardrails }, actor);
  if (!record) return { error: "no such key" };
  await publishKeyChange(rt, record);
  revalidatePath("/admin", "layout");
  return { message: guardrails ? `Guardrail policy ${guardrails} saved.` : "Guardrail policy cleared." };
}

// Patterns separated by commas, spaces or lines; an empty field is no rule.
const patternList = z.preprocess(
  (v) => (typeof v === "string" ? v.split(/[\s,]+/).filter(Boolean) : []),
  setModelRulesInput.shape.allow,
);
const modelRulesForm = z.object({ id: z.string().min(1).max(100), allow: patternList, deny: patternList });

export async function setModelRules(_previous: AdminActionState, form: FormData): Promise<AdminActionState> {
  const { rt, actor } = await operator();
  const parsed = modelRulesForm.safeParse(Object.fromEntries(form));
  if (!parsed.success)
    return {
      error:
        "model rules are up to 50 aliases or provider/model patterns each, of at most 200 letters, digits, . _ : @ / + - or *",
    };
  const { id, ...rules } = parsed.data;
  const record = await setKeyModelRules(rt.db, id, rules, actor);
  if (!record) return { error: "no such key" };
  await publishKeyChange(rt, record);
  revalidatePath("/admin", "layout");
  return { message: "Model rules saved." };
}

const cachePolicyForm = z.object({
  id: z.string().min(1).max(100),
  // Empty: no policy (the cache only when a request asks).
  maxAge: z.preprocess((v) => (v === "" || v === undefined ? null : Number(v)), setCachePolicyInput.shape.maxAge),
  semantic: z.preprocess((v) => v === "on", z.boolean()),
  scope: setCachePolicyInput.shape.scope,
});

export async function setCachePolicy(_previous: AdminActionState, form: FormData): Promise<AdminActionState> {
  const { rt, actor } = await operator();
  const parsed = cachePolicyForm.safeParse(Object.fromEntries(form));
  if (!parsed.success)
    return { error: "the age is whole seconds from 1 to 31,536,000 (a year), or empty for no policy" };
  const { id, ...policy } = parsed.data;
  if (policy.semantic && policy.maxAge === null)
    return { error: "matching by meaning needs an age: the answers it matches are the cache's" };
  const record = await setKeyCachePolicy(rt.db, id, policy, actor);
  if (!record) return { error: "no such key" };
  await publishKeyChange(rt, record);
  revalidatePath("/admin", "layout");
  return { message: "Cache policy saved." };
}

/** The admin key forms' fields as their labels name them, for problems worded by `parseForm`. */
const KEY_LABELS = { id: "Key", email: "Owner's email", name: "Key name", expiresOn: "Last day it works" };

const idForm = z.object({ id: z.string().min(1).max(100) });

const termsForm = z.object({
  scopeMode: z.string().max(10).nullable(),
  scopes: z.array(z.enum(SCOPE_AREAS)).max(50),
  expiresOn: z.string().max(20),
});

const readTerms = (form: FormData) =>
  parseForm(
    termsForm,
    {
      scopeMode: form.get("scopeMode"),
      scopes: form.getAll("scopes"),
      expiresOn: form.get("expiresOn") ?? "",
    },
    KEY_LABELS,
  );

/** The areas and last day chosen in a form, checked: the scope picker's answer and a date not in the past. */
function chosenTerms(
  fields: z.output<typeof termsForm>,
): { scopes: (typeof SCOPE_AREAS)[number][]; expiresAt: Date | null } | { error: string } {
  const areas = chosenScopes(fields.scopeMode, fields.scopes);
  if ("error" in areas) return areas;
  const expiry = expiryFromDay(fields.expiresOn);
  if ("error" in expiry) return expiry;
  return { scopes: areas.scopes, expiresAt: expiry.expiresAt ?? null };
}

const termsText = (scopes: string[], expiresAt: Date | null) =>
  `areas: ${scopes.length ? scopes.join(", ") : "every area"}; last day: ${expiresAt ? lastDay(expiresAt) : "none (it does not expire)"}`;

/** Sets a key's areas (and its grant with them) and its last day; operator scopes it holds stay. */
export async function setKeyTerms(_previous: AdminActionState, form: FormData): Promise<AdminActionState> {
  const { rt, actor } = await operator();
  const key = parseForm(idForm, { id: form.get("id") }, KEY_LABELS);
  if (!key.success) return { error: formIssue(key.error) };
  const parsed = readTerms(form);
  if (!parsed.success) return { error: formIssue(parsed.error) };
  const terms = chosenTerms(parsed.data);
  if ("error" in terms) return { error: terms.error };
  const { id } = key.data;
  const existing = await rt.db.prisma.apiKey.findUnique({ where: { id }, select: { scopes: true } });
  if (!existing) return { error: "No such key" };
  const scopes = [...terms.scopes, ...existing.scopes.filter(isOperatorScope)].sort();
  const record = await updateKeyTerms(rt.db, id, { scopes, expiresAt: terms.expiresAt }, actor);
  if (!record) return { error: "No such key (a console key's areas are set by CONSOLE_KEY_SCOPES)" };
  await publishKeyChange(rt, record);
  revalidatePath("/admin", "layout");
  return { message: `Saved: ${termsText(terms.scopes, terms.expiresAt)}.` };
}

const newKeyForm = z.object({
  email: z.email().max(320),
  name: z.string().trim().min(1, "give the key a name").max(100),
});

export type AdminCreateState = AdminActionState & {
  created?: { name: string; prefix: string; key: string; email: string };
};

/**
 * Makes a key for a person by address (their account is made if they have none), with its areas and
 * last day, shown once to the operator to pass on.
 */
export async function createKeyForUser(_previous: AdminCreateState, form: FormData): Promise<AdminCreateState> {
  const { rt, actor } = await operator();
  const person = parseForm(newKeyForm, { email: form.get("email"), name: form.get("name") }, KEY_LABELS);
  if (!person.success) return { error: formIssue(person.error) };
  const fields = readTerms(form);
  if (!fields.success) return { error: formIssue(fields.error) };
  const terms = chosenTerms(fields.data);
  if ("error" in terms) return { error: terms.error };
  const email = person.data.email.toLowerCase();
  let created;
  try {
    created = await createKey(
      rt.db,
      { name: person.data.name, email, scopes: terms.scopes, expiresAt: terms.expiresAt ?? undefined },
      actor,
      rt.config,
    );
  } catch (err) {
    if (err instanceof KeyRuleError) return { error: err.message };
    throw err;
  }
  rt.keys.remember(created.record);
  revalidatePath("/admin", "layout");
  return {
    message: `Made “${person.data.name}” for ${email}: ${termsText(terms.scopes, terms.expiresAt)}.`,
    created: { name: person.data.name, prefix: created.prefix, key: created.key, email },
  };
}
