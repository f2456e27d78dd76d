"use server";

import { revalidatePath } from "next/cache";
import { getGateway } from "@/lib/instance.ts";
import { ownerCredentials } from "@/lib/llm/routing/owner-credentials.ts";
import { deleteProviderKey, saveProviderKey, type ProviderKeyState } from "@/lib/portal/keys/provider-keys.ts";
import { currentSession } from "@/lib/portal/sign-in/session.ts";

// Server actions: Next checks each call's Origin against the host (no cross-site posts), and each
// reads the session itself, so a form only ever changes its signed-in user's own keys.

async function signedIn() {
  const session = await currentSession();
  if (!session) throw new Error("signed out: sign in again");
  const { rt } = await getGateway();
  return { credentials: ownerCredentials(rt), userId: session.user.id, enabled: Boolean(rt.config.secretBox) };
}

const disabled: ProviderKeyState = { error: "the operator has not enabled provider keys on this gateway" };

export async function saveMyProviderKey(_previous: ProviderKeyState, form: FormData): Promise<ProviderKeyState> {
  const { credentials, userId, enabled } = await signedIn();
  if (!enabled) return disabled;
  const state = await saveProviderKey(credentials, userId, form);
  if (!state.error) revalidatePath("/keys/providers");
  return state;
}

export async function deleteMyProviderKey(_previous: ProviderKeyState, form: FormData): Promise<ProviderKeyState> {
  const { credentials, userId, enabled } = await signedIn();
  if (!enabled) return disabled;
  const state = await deleteProviderKey(credentials, userId, form);
  if (!state.error) revalidatePath("/keys/providers");
  return state;
}
