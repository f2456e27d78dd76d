"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { getGateway } from "@/lib/instance.ts";
import {
  keyRequestInput,
  KeyRuleError,
  pickUpKey,
  renameKey,
  requestKey,
  revokeKey,
  rotateKey,
  setKeyScopes,
  type CreatedKey,
} from "@/lib/gateway/keys/admin.ts";
import { SCOPE_AREAS } from "@/lib/gateway/keys/record.ts";
import { getPortal } from "@/lib/portal/auth.ts";
import { publishKeyChange } from "@/lib/portal/keys.ts";
import { currentSession } from "@/lib/portal/session.ts";

/**
 * What a key form shows after it ran: an error, a message, or a new key (its only appearance).
 * Actions that return a key do not revalidate the page: the refreshed list would unmount the form
 * holding the key before it was copied. The key display's "Done" refreshes the page instead.
 */
export type KeyActionState = {
  error?: string;
  message?: string;
  created?: { id: string; name: string; prefix: string; key: string };
};

async function signedIn() {
  const session = await currentSession();
  if (!session) throw new Error("signed out: sign in again");
  const { rt } = await getGateway();
  return { rt, userId: session.user.id, actor: session.user.email ?? `user:${session.user.id}` };
}

function shown(created: CreatedKey): KeyActionState["created"] {
  return { id: created.id, name: created.record.name, prefix: created.prefix, key: created.key };
}

function firstIssue(err: z.ZodError): string {
  const issue = err.issues[0];
  return issue ? `${issue.path.join(".") || "input"}: ${issue.message}` : "invalid input";
}

/** A change the key rules refused (too many keys, widening scopes, rotating twice) is the form's error. */
function refused(err: unknown): KeyActionState {
  if (err instanceof KeyRuleError) return { error: err.message };
  throw err;
}

const requestForm = z.object({
  name: z.string(),
  intendedUse: z.string(),
  organisation: z.string().optional(),
  useType: z.string(),
});

export async function submitKeyRequest(_previous: KeyActionState, form: FormData): Promise<KeyActionState> {
  const { rt, userId } = await signedIn();
  const { config } = await getPortal();
  const raw = requestForm.safeParse(Object.fromEntries(form));
  const parsed = raw.success ? keyRequestInput.safeParse(raw.data) : raw;
  if (!parsed.success) return { error: firstIssue(parsed.error) };
  const request = await requestKey(
    rt.db,
    userId,
    parsed.data as z.input<typeof keyRequestInput>,
    config.autoApproveKeys,
  );
  revalidatePath("/admin");
  if (request.status !== "approved") {
    revalidatePath("/keys");
    return { message: "Request sent. An operator will review it; you will see the decision on your keys page." };
  }
  let created;
  try {
    created = await pickUpKey(rt.db, request.id, userId, rt.config);
  } catch (err) {
    return refused(err);
  }
  if (!created) return { error: "the key could not be created; open your keys page" };
  await publishKeyChange(rt, created.record);
  return { created: shown(created) };
}

const idForm = z.object({ id: z.string().min(1).max(100) });

export async function collectKey(_previous: KeyActionState, form: FormData): Promise<KeyActionState> {
  const { rt, userId } = await signedIn();
  const parsed = idForm.safeParse(Object.fromEntries(form));
  if (!parsed.success) return { error: firstIssue(parsed.error) };
  let created;
  try {
    created = await pickUpKey(rt.db, parsed.data.id, userId, rt.config);
  } catch (err) {
    return refused(err);
  }
  if (!created) return { error: "this key was already shown once; rotate it if you no longer have it" };
  await publishKeyChange(rt, created.record);
  return { created: shown(created) };
}

export async function renameMyKey(_previous: KeyActionState, form: FormData): Promise<KeyActionState> {
  const { rt, userId, actor } = await signedIn();
  const parsed = idForm
    .extend({ name: z.string().trim().min(1, "the name cannot be empty").max(100) })
    .safeParse(Object.fromEntries(form));
  if (!parsed.success) return { error: firstIssue(parsed.error) };
  const record = await renameKey(rt.db, parsed.data.id, { name: parsed.data.name }, actor, userId);
  if (!record) return { error: "no such key of yours" };
  await publishKeyChange(rt, record);
  revalidatePath("/keys");
  return { message: `Renamed to “${record.name}”.` };
}

export async function setMyKeyScopes(_previous: KeyActionState, form: FormData): Promise<KeyActionState> {
  const { rt, userId, actor } = await signedIn();
  const parsed = idForm
    .extend({ scopes: z.array(z.enum(SCOPE_AREAS)).max(50) })
    .safeParse({ id: form.get("id"), scopes: form.getAll("scopes") });
  if (!parsed.success) return { error: firstIssue(parsed.error) };
  let record;
  try {
    record = await setKeyScopes(rt.db, parsed.data.id, { scopes: parsed.data.scopes }, actor, userId);
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
  const parsed = idForm.extend({ graceHours: z.coerce.number().min(0).max(720) }).safeParse(Object.fromEntries(form));
  if (!parsed.success) return { error: firstIssue(parsed.error) };
  let rotated;
  try {
    rotated = await rotateKey(rt.db, parsed.data.id, { graceHours: parsed.data.graceHours }, actor, userId);
  } catch (err) {
    return refused(err);
  }
  if (!rotated) return { error: "no such key of yours" };
  await publishKeyChange(rt, rotated.record, rotated.old);
  return { created: shown(rotated) };
}

export async function revokeMyKey(_previous: KeyActionState, form: FormData): Promise<KeyActionState> {
  const { rt, userId, actor } = await signedIn();
  const parsed = idForm.safeParse(Object.fromEntries(form));
  if (!parsed.success) return { error: firstIssue(parsed.error) };
  const record = await revokeKey(rt.db, parsed.data.id, actor, userId);
  if (!record) return { error: "no such key of yours" };
  await publishKeyChange(rt, record);
  revalidatePath("/keys");
  return { message: "Revoked. Calls with this key are refused from now on." };
}
