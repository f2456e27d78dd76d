/**
 * Who approves a key request: the operator always (`manual`), nobody (`auto`: the key is made at
 * once), or nobody for people signed in with an address at one of the listed domains (`domains`).
 */
export type KeyApprovalPolicy = { mode: "manual" } | { mode: "auto" } | { mode: "domains"; domains: readonly string[] };

/** What the policy says about one request: approved at once (and in whose name, for the audit log), or left to an operator. */
export type ApprovalDecision = { approved: true; by: string } | { approved: false };

// A host name as DNS writes it: dot-separated labels of letters, digits and inner hyphens (IDNs in
// their xn-- form), at least two labels. No wildcards: a subdomain counts only when it is listed.
const DOMAIN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * The domains of KEY_APPROVAL_DOMAINS, lowercased; an entry that is not a plain domain is an error
 * naming it, so a typo cannot quietly leave everyone waiting (or let the wrong people in).
 */
export function parseApprovalDomains(list: string): string[] {
  const domains = list
    .split(",")
    .map((d) => d.trim().toLowerCase())
    .filter(Boolean);
  const bad = domains.filter((d) => !DOMAIN.test(d));
  if (bad.length)
    throw new Error(
      `KEY_APPROVAL_DOMAINS: ${bad.map((d) => `"${d}"`).join(", ")} ${bad.length > 1 ? "are not domains" : "is not a domain"} ` +
        `(write them as example.com,example.org; a subdomain is matched only when listed itself)`,
    );
  return [...new Set(domains)];
}

/** The domain of an address (after its last @), lowercased; null when there is none. */
export function emailDomain(email: string | null | undefined): string | null {
  const at = email?.lastIndexOf("@") ?? -1;
  if (!email || at < 1 || at === email.length - 1) return null;
  return email.slice(at + 1).toLowerCase();
}

/**
 * Decides a new request under the policy. `email` must be an address the user has shown they own
 * (the portal only stores such addresses: email links prove theirs, GitHub ones count when GitHub
 * says they are verified). Domains match exactly: sub.example.com is not example.com.
 */
export function decideByPolicy(policy: KeyApprovalPolicy, email: string | null | undefined): ApprovalDecision {
  if (policy.mode === "auto") return { approved: true, by: "auto-approve" };
  if (policy.mode === "manual") return { approved: false };
  const domain = emailDomain(email);
  return domain !== null && policy.domains.includes(domain)
    ? { approved: true, by: `auto-approve:${domain}` }
    : { approved: false };
}
