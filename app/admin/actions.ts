"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { getGateway } from "@/lib/instance.ts";
import {
  revokeKey,
  setCachePolicyInput,
  setKeyCachePolicy,
  setKeyLimits,
  setKeyModelRules,
  setModelRulesInput,
} from "@/lib/gateway/keys/key-changes.ts";
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
