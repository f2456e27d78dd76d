import { z } from "zod";
import {
  CREDENTIAL_LABEL,
  CREDENTIAL_LABEL_RULE,
  DEFAULT_LABEL,
  KEYED_PROVIDERS,
  PROVIDER_SECRET,
  PROVIDER_SECRET_RULE,
  type OwnerCredentials,
} from "../../llm/routing/owner-credentials.ts";
import { formatUtc } from "../pages/format.ts";
import { formIssue } from "../forms/form-issue.ts";

/**
 * The portal's "Provider keys" page: a signed-in user's own provider keys, which the model router
 * sends their calls with (GATEWAY_OWNER_KEYS). The same store and rules as /v1/provider-keys; the
 * secret goes in once and is never sent back, not even into the form after an error.
 */

/** What a provider-key form shows after it ran. */
export type ProviderKeyState = { error?: string; message?: string };

/** One stored key as the page lists it. */
export type ProviderKeyRow = { provider: string; label: string; last4: string; updated: string; lastUsed: string };

const provider = z.enum(KEYED_PROVIDERS as [string, ...string[]], {
  message: `provider: one of ${KEYED_PROVIDERS.join(", ")}`,
});
// An empty label field is the default label.
const label = z
  .string()
  .trim()
  .transform((v) => v || DEFAULT_LABEL)
  .pipe(z.string().regex(CREDENTIAL_LABEL, CREDENTIAL_LABEL_RULE));

export const saveProviderKeyForm = z.object({
  provider,
  secret: z.string().trim().regex(PROVIDER_SECRET, `key: ${PROVIDER_SECRET_RULE}`),
  label: label.default(DEFAULT_LABEL),
});
export const deleteProviderKeyForm = z.object({ provider, label: label.default(DEFAULT_LABEL) });

const fields = (form: FormData, names: string[]) =>
  Object.fromEntries(names.flatMap((n) => (typeof form.get(n) === "string" ? [[n, form.get(n)]] : [])));

const labelled = (l: string) => (l === DEFAULT_LABEL ? "" : ` (“${l}”)`);

/** The owner's stored keys as rows, newest change first within a provider's order. */
export async function providerKeyRows(credentials: OwnerCredentials, ownerId: string): Promise<ProviderKeyRow[]> {
  return (await credentials.list(ownerId)).map((k) => ({
    provider: k.provider,
    label: k.label,
    last4: k.last4,
    updated: formatUtc(k.updatedAt),
    lastUsed: formatUtc(k.lastUsedAt),
  }));
}

/** Stores (or replaces) the key the form carries; its answer never holds the key. */
export async function saveProviderKey(
  credentials: OwnerCredentials,
  ownerId: string,
  form: FormData,
): Promise<ProviderKeyState> {
  const parsed = saveProviderKeyForm.safeParse(fields(form, ["provider", "secret", "label"]));
  if (!parsed.success) return { error: formIssue(parsed.error) };
  const { provider, secret, label } = parsed.data;
  const { created, credential } = await credentials.store(ownerId, provider, secret, label);
  const what = `Your ${provider} key${labelled(label)} ending in ${credential.last4}`;
  return {
    message: `${what} ${created ? "is stored" : "replaced the one stored before"}. Your calls to ${provider} use it from now on.`,
  };
}

export async function deleteProviderKey(
  credentials: OwnerCredentials,
  ownerId: string,
  form: FormData,
): Promise<ProviderKeyState> {
  const parsed = deleteProviderKeyForm.safeParse(fields(form, ["provider", "label"]));
  if (!parsed.success) return { error: formIssue(parsed.error) };
  const { provider, label } = parsed.data;
  if (!(await credentials.delete(ownerId, provider, label)))
    return { error: `no ${provider} key${labelled(label)} of yours is stored` };
  return { message: `Your ${provider} key${labelled(label)} is deleted.` };
}
