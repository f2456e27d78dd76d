import { decideByPolicy, type KeyApprovalPolicy } from "../../gateway/keys/approval.ts";

/** "a", "a or b", "a, b or c". */
function either(items: readonly string[]): string {
  return items.length < 2 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} or ${items.at(-1)}`;
}

const REVIEWED = "An operator reviews the request; your keys page shows the decision.";
const PICK_UP = "Once it is approved, your keys page offers to create the key and shows it once.";

/** How this server issues keys, for anyone (the home page's "How to get a key"). */
export function approvalSummary(policy: KeyApprovalPolicy): string {
  if (policy.mode === "auto") return "This server approves requests at once: no waiting for an operator.";
  if (policy.mode === "manual") return REVIEWED;
  return `Requests from addresses at ${either(policy.domains)} are approved at once. An operator reviews any other; your keys page shows the decision.`;
}

/** What sending the request form will do for this signed-in person: their key at once, or a review. */
export function requestIntro(policy: KeyApprovalPolicy, email: string | null | undefined): string {
  if (decideByPolicy(policy, email).approved)
    return "This server issues your key at once: it is created when you send the form, and shown once.";
  // "auto" approved everyone above; only "manual" and "domains" leave a request to an operator.
  if (policy.mode !== "domains") return `An operator reviews each request. ${PICK_UP}`;
  const yours = email ? `yours (${email}) is not one of them` : "your account has no email address";
  return `Keys are issued at once to addresses at ${either(policy.domains)}; ${yours}, so an operator reviews your request. ${PICK_UP}`;
}

/**
 * What happens to a request left for an operator: who decides, and how the requester hears of it
 * (mail when this server sends mail, else only the keys page). A server with no operator listed
 * says so: nobody could approve the request in the portal until ADMIN_EMAILS names someone.
 */
export function pendingNextSteps(options: {
  email: string | null | undefined;
  mailConfigured: boolean;
  operatorsConfigured: boolean;
}): string {
  const { email, mailConfigured, operatorsConfigured } = options;
  const who = operatorsConfigured
    ? "An operator of this server decides on it."
    : "No operator is configured on this server yet (ADMIN_EMAILS), so nobody can decide on it until one is.";
  const told =
    mailConfigured && email
      ? `You will get an email at ${email} with the decision, which also shows on your keys page.`
      : "This server sends no mail: the decision shows on your keys page.";
  return `${who} ${told} Once it is approved, the key is created there and shown once.`;
}
