"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { getGateway } from "@/lib/instance.ts";
import { type CreatedKey, renameKey, revokeKey, setKeyScopes } from "@/lib/gateway/keys/key-changes.ts";
import {
  dismissKeyRequest,
  keyRequestInput,
  pickUpKey,
  requestKey,
  withdrawKeyRequest,
} from "@/lib/gateway/keys/key-requests.ts";
import { rotateKey } from "@/lib/gateway/keys/key-rotation.ts";
import { KeyRuleError } from "@/lib/gateway/keys/key-rules.ts";
import { SCOPE_AREAS } from "@/lib/gateway/keys/record.ts";
import { pendingNextSteps } from "@/lib/portal/keys/approval-text.ts";
import { getPortal } from "@/lib/portal/sign-in/auth.ts";
import { expiryFromDay } from "@/lib/portal/keys/expiry-day.ts";
import { publishKeyChange } from "@/lib/portal/keys/publish-change.ts";
import { grantedAreasOf } from "@/lib/portal/keys/my-keys.ts";
import { chosenScopes } from "@/lib/portal/keys/scope-choice.ts";
import { currentSession } from "@/lib/portal/sign-in/session.ts";
import { formIssue, parseForm } from "@/lib/portal/forms/form-issue.ts";

/**
 * What a key form shows after it ran: an error, a message, or a new key (its only appearance).
 * Actions that return a key do not revalidate the page: the refreshed list would unmount the form
 * holding the key before it was copied. The key display's "Done" refreshes the page instead.
 */
export type KeyActionState = {
  error?: string;
  message?: string;
  created?: { id: string; name: string; prefix: string; key: string };
  /** The request form's fields as sent, so a refused request comes back as it was typed. */
  submitted?: RequestFields;
};

async function signedIn() {
  const session = await currentSession();
  if (!session) throw new Error("signed out: sign in again");
  const { rt } = await getGateway();
  const email = session.user.email ?? null;
  return { rt, userId: session.user.id, email, actor: email ?? `user:${session.user.id}` };
}

function shown(created: CreatedKey): KeyActionState["created"] {
  return { id: created.id, name: created.record.name, prefix: created.prefix, key: created.key };
}

/** The key forms' fields as their labels name them, for problems worded by `parseForm`. */
const LABELS = {
  id: "Key",
  name: "Key name",
  intendedUse: "Intended use",
  organisation: "Organisation",
  useType: "Use type",
  expiresOn: "Last day it works",
  scopes: "Areas",
  scopeMode: "Areas",
  graceHours: "Old key keeps working for",
};

/** A change the key rules refused (too many keys, a name taken, widening scopes, rotating twice) is the form's error. */
function refused(err: unknown): KeyActionState {
  if (err instanceof KeyRuleError) return { error: err.message };
  throw err;
}

/** The areas ticked in a scope picker, and whether it said "every area" or "only these". */
const scopeFields = z.object({
  scopeMode: z.string().nullable(),
  scopes: z.array(z.enum(SCOPE_AREAS)).max(50),
});
const readScopes = (form: FormData) =>
  parseForm(scopeFields, { scopeMode: form.get("scopeMode"), scopes: form.getAll("scopes") }, LABELS);

const requestForm = z.object({
  name: z.string(),
  intendedUse: z.string(),
  organisation: z.string().optional(),
  useType: z.string(),
  expiresOn: z.string().default(""),
});
type RequestFields = z.infer<typeof requestForm> & { scopeMode: string; scopes: string[] };

/**
 * The request form: a key with its name, scopes and expiry in one step. The approval policy decides
 * at once (the key is then made and shown here) or leaves it to an operator, and the answer says
 * what happens next.
 */
export async function submitKeyRequest(_previous: KeyActionState, form: FormData): Promise<KeyActionState> {
  const { rt, userId, email } = await signedIn();
  const { config, mailer } = await getPortal();
  const raw = parseForm(requestForm, Object.fromEntries(form), LABELS);
  if (!raw.success) return { error: formIssue(raw.error) };
  const submitted: RequestFields = {
    ...raw.data,
    scopeMode: String(form.get("scopeMode") ?? ""),
    scopes: form.getAll("scopes").map(String),
  };
  const refusal = (error: string): KeyActionState => ({ error, submitted });
  const fields = readScopes(form);
  if (!fields.success) return refusal(formIssue(fields.error));
  const scopes = chosenScopes(fields.data.scopeMode, fields.data.scopes);
  if ("error" in scopes) return refusal(scopes.error);
  const expiry = expiryFromDay(raw.data.expiresOn);
  if ("error" in expiry) return refusal(expiry.error);
  const parsed = parseForm(
    keyRequestInput,
    { ...raw.data, scopes: scopes.scopes, expiresAt: expiry.expiresAt },
    LABELS,
  );
  if (!parsed.success) return refusal(formIssue(parsed.error));
  let request;
  try {
    request = await requestKey(rt.db, userId, parsed.data as z.input<typeof keyRequestInput>, config.keyApproval);
  } catch (err) {
    return { ...refused(err), submitted };
  }
  revalidatePath("/admin");
  if (request.status !== "approved") {
    revalidatePath("/keys");
    const next = pendingNextSteps({
      email,
      mailConfigured: mailer.configured,
      operatorsConfigured: config.adminEmails.size > 0,
    });
    return { message: `Request sent. ${next}` };
  }
  let created;
  try {
    created = await pickUpKey(rt.db, request.id, userId, rt.config);
  } catch (err) {
    // Approved but not made (no room for another key): the request waits on the keys page.
    return refused(err);
  }
  if (!created) return { error: "the key could not be created; open your keys page" };
  await publishKeyChange(rt, created.record);
  return { created: shown(created) };
}

const idForm = z.object({ id: z.string().min(1).max(100) });

export async function collectKey(_previous: KeyActionState, form: FormData): Promise<KeyActionState> {
  const { rt, userId } = await signedIn();
  const parsed = parseForm(idForm, Object.fromEntries(form), LABELS);
  if (!parsed.success) return { error: formIssue(parsed.error) };
  let created;
  try {
    created = await pickUpKey(rt.db, parsed.data.id, userId, rt.config);
  } catch (err) {
    return refused(err);
  }
  if (!created) return { error: "this key was already shown once; rotate it if you no longer have it" };
  await publishKeyChange(rt, created.record);
  // The lists show the new key at once; the key itself is shown once by the page's holder.
  revalidatePath("/keys");
  return { created: shown(created) };
}

export async function renameMyKey(_previous: KeyActionState, form: FormData): Promise<KeyActionState> {
  const { rt, userId, actor } = await signedIn();
  const parsed = parseForm(
    idForm.extend({ name: z.string().trim().min(1, "give the key a name").max(100) }),
    Object.fromEntries(form),
    LABELS,
  );
  if (!parsed.success) return { error: formIssue(parsed.error) };
  let record;
  try {
    record = await renameKey(rt.db, parsed.data.id, { name: parsed.data.name }, actor, userId);
  } catch (err) {
    return refused(err);
  }
  if (!record) return { error: "no such key of yours" };
  await publishKeyChange(rt, record);
  revalidatePath("/keys");
  return { message: `Renamed to “${record.name}”.` };
}

export async function setMyKeyScopes(_previous: KeyActionState, form: FormData): Promise<KeyActionState> {
  const { rt, userId, actor } = await signedIn();
  const id = parseForm(idForm, { id: form.get("id") }, LABELS);
  if (!id.success) return { error: formIssue(id.error) };
  const fields = readScopes(form);
  if (!fields.success) return { error: formIssue(fields.error) };
  // The grant decides whether "every area" is on offer; setKeyScopes checks the grant again.
  const granted = await grantedAreasOf(rt.db, id.data.id, userId);
  if (!granted) return { error: "no such key of yours" };
  const scopes = chosenScopes(fields.data.scopeMode, fields.data.scopes, granted);
  if ("error" in scopes) return { error: scopes.error };
  let record;
  try {
    record = await setKeyScopes(rt.db, id.data.id, { scopes: scopes.scopes }, actor, userId);
  } catch (err) {
    return refused(err);
  }
  if (!record) return { error: "no such key of yours" };
  await publishKeyChange(rt, record);
  revalidatePath("/keys");
  return { message: record.scopes.length ? `Scopes: ${record.scopes.join(", ")}.` : "This key may call every area." };
}

export async function rotateMyKey(_previous: KeyActionState, form: FormData): Promise<KeyActionState> {
  const { rt, userId, actor } = await signedIn();
  const parsed = parseForm(
    idForm.extend({ graceHours: z.coerce.number().min(0).max(720) }),
    Object.fromEntries(form),
    LABELS,
  );
  if (!parsed.success) return { error: formIssue(parsed.error) };
  let rotated;
  try {
    rotated = await rotateKey(rt.db, parsed.data.id, { graceHours: parsed.data.graceHours }, actor, userId, rt.config);
  } catch (err) {
    return refused(err);
  }
  if (!rotated) return { error: "no such key of yours" };
  await publishKeyChange(rt, rotated.record, rotated.old, ...rotated.ended);
  // The replacement counts against its lineage's budget here at once (other instances: their next refresh).
  void rt.budgets.refresh();
  revalidatePath("/keys");
  return { created: shown(rotated) };
}

export async function revokeMyKey(_previous: KeyActionState, form: FormData): Promise<KeyActionState> {
  const { rt, userId, actor } = await signedIn();
  const parsed = parseForm(idForm, Object.fromEntries(form), LABELS);
  if (!parsed.success) return { error: formIssue(parsed.error) };
  const record = await revokeKey(rt.db, parsed.data.id, actor, userId);
  if (!record) return { error: "no such key of yours" };
  await publishKeyChange(rt, record);
  revalidatePath("/keys");
  return { message: "Revoked. Calls with this key are refused from now on." };
}

export async function withdrawMyRequest(_previous: KeyActionState, form: FormData): Promise<KeyActionState> {
  const { rt, userId } = await signedIn();
  const parsed = parseForm(idForm, Object.fromEntries(form), LABELS);
  if (!parsed.success) return { error: formIssue(parsed.error) };
  if (!(await withdrawKeyRequest(rt.db, parsed.data.id, userId)))
    return { error: "This request was decided already, or is not yours" };
  revalidatePath("/keys");
  revalidatePath("/admin");
  return { message: "Request withdrawn." };
}

export async function dismissMyRequest(_previous: KeyActionState, form: FormData): Promise<KeyActionState> {
  const { rt, userId } = await signedIn();
  const parsed = parseForm(idForm, Object.fromEntries(form), LABELS);
  if (!parsed.success) return { error: formIssue(parsed.error) };
  if (!(await dismissKeyRequest(rt.db, parsed.data.id, userId))) return { error: "No such declined request of yours" };
  revalidatePath("/keys");
  return { message: "Dismissed." };
}
