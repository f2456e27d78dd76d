import type { Database } from "../../db/database.ts";
import { decideKeyRequest, type decisionInput } from "../../gateway/keys/key-requests.ts";
import type { z } from "zod";
import type { Mail, Mailer } from "../mail.ts";

type DecidedRequest = NonNullable<Awaited<ReturnType<typeof decideKeyRequest>>>;

/** How a decision reaches its requester: by mail when this server sends mail, pointing at the portal. */
export type DecisionNotice = { mailer: Mailer; portalUrl: string };

export type ToldDecision = {
  request: DecidedRequest;
  /** "unsent": this server sends no mail, or the requester has no address (the keys page shows it either way). */
  mail: "sent" | "unsent" | "failed";
  /** Why the mail failed, for the caller's log. */
  error?: unknown;
};

/** The mail that tells a requester of the operator's decision, with the operator's note. */
export function keyDecisionMail(
  to: string,
  request: Pick<DecidedRequest, "name" | "status" | "note">,
  portalUrl: string,
): Mail {
  const approved = request.status === "approved";
  return {
    to,
    subject: approved
      ? `Your API key “${request.name}” is approved`
      : `Your API key request “${request.name}” was declined`,
    text:
      (approved
        ? `Your request was approved. Open ${portalUrl}/keys to create the key; it is shown once.`
        : `Your request was declined.`) +
      (request.note ? `\n\nNote from the operator: ${request.note}` : "") +
      "\n",
  };
}

/**
 * An operator's decision on a pending key request, and the requester told of it: the one path of the
 * admin area and the keys CLI. Null when the request is not pending (decided already, or unknown). A
 * failed mail does not undo the decision: it is reported, and the keys page shows the decision anyway.
 */
export async function decideAndTell(
  db: Database,
  notice: DecisionNotice,
  id: string,
  input: z.input<typeof decisionInput>,
  actor: string,
): Promise<ToldDecision | null> {
  const request = await decideKeyRequest(db, id, input, actor);
  if (!request) return null;
  const to = request.user.email;
  if (!to || !notice.mailer.configured) return { request, mail: "unsent" };
  try {
    await notice.mailer.send(keyDecisionMail(to, request, notice.portalUrl));
    return { request, mail: "sent" };
  } catch (error) {
    return { request, mail: "failed", error };
  }
}
