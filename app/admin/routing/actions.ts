"use server";

import { revalidatePath } from "next/cache";
import { getGateway } from "@/lib/instance.ts";
import { currentSession } from "@/lib/portal/sign-in/session.ts";
import { clearCacheAction, type CacheActionState } from "@/lib/portal/admin/cache-actions.ts";
import { routingAction, type RoutingActionState, type RoutingEditor } from "@/lib/portal/admin/routing-actions.ts";

async function editor(): Promise<RoutingEditor | null> {
  const session = await currentSession();
  if (!session) return null;
  return { operator: Boolean(session.user.operator), actor: session.user.email ?? `user:${session.user.id}` };
}

/** Checks the routing file's text as a start would, without saving it. */
export async function checkRouting(_previous: RoutingActionState, form: FormData): Promise<RoutingActionState> {
  const { rt } = await getGateway();
  return routingAction(rt, await editor(), Object.fromEntries(form), false);
}

/** Saves the routing file's text and puts it in force on this instance. */
export async function saveRouting(_previous: RoutingActionState, form: FormData): Promise<RoutingActionState> {
  const { rt } = await getGateway();
  const state = await routingAction(rt, await editor(), Object.fromEntries(form), true);
  if (state.version) revalidatePath("/admin/routing");
  return state;
}

/** Clears the whole response cache (every key's entries and every shared alias's). */
export async function clearCache(_previous: CacheActionState, _form: FormData): Promise<CacheActionState> {
  const { rt } = await getGateway();
  return clearCacheAction(rt, await editor());
}
