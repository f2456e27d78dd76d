import { PII_KINDS } from "../../guardrails/pii.ts";
import type { GuardrailAction, GuardrailCheck, GuardrailPolicy } from "../../guardrails/policy.ts";
import type { LevelDirectory } from "../../gateway/teams/level-directory.ts";
import type { Routing } from "../../llm/routing/deployments.ts";

/** A policy as a key's page names it: its name and what it does, or null when the routing file lost it. */
export type NamedPolicy = { name: string; does: string | null };

/**
 * The guardrail policy a key's model calls are under, as the gateway picks it (policyFor): the key's
 * own, else its team's, else the policy of the alias a call names, else none.
 */
export type KeyGuardrails =
  | ({ source: "key" } & NamedPolicy)
  | ({ source: "team"; team: string } & NamedPolicy)
  | { source: "alias"; aliases: ({ alias: string } & NamedPolicy)[] }
  | { source: "none" };

const VERBS: Record<GuardrailAction, string> = { block: "blocks", redact: "redacts", flag: "flags" };

const counted = (n: number, what: string) => `${n.toLocaleString("en")} ${what}${n === 1 ? "" : "s"}`;

/** One check in words, with counts where it lists things (never the listed terms themselves). */
function checkText(policy: GuardrailPolicy, check: GuardrailCheck): string {
  switch (check) {
    case "pii":
      return policy.piiKinds.size === PII_KINDS.length
        ? "personal data of every kind"
        : `personal data (${[...policy.piiKinds].join(", ").replaceAll("_", " ")})`;
    case "injection":
      return `likely prompt injections (score ${policy.injectionThreshold} or more)`;
    case "words": {
      const listed = policy.wordsListed;
      const parts = [
        listed?.terms ? counted(listed.terms, "listed term") : "",
        listed?.patterns ? counted(listed.patterns, "listed pattern") : "",
        listed?.profanity ? "profanity" : "",
      ];
      return parts.filter(Boolean).join(" and ") || "listed words";
    }
    case "length":
      return `prompts over ${policy.maxChars?.toLocaleString("en") ?? "its limit of"} characters`;
    default:
      // Checks this page has no words of its own for yet are named as the routing file names them.
      return `the ${check.replaceAll("_", " ")} check`;
  }
}

/**
 * What a policy does, in a sentence: "Blocks personal data (card, iban) and likely prompt injections
 * (score 0.5 or more)." Only personal data and listed words can be redacted; under redact the other
 * checks flag (as the gateway does).
 */
export function policyDoes(policy: GuardrailPolicy): string {
  const byAction = new Map<GuardrailAction, string[]>();
  for (const check of policy.checks) {
    const action = policy.action === "redact" && check !== "pii" && check !== "words" ? "flag" : policy.action;
    byAction.set(action, [...(byAction.get(action) ?? []), checkText(policy, check)]);
  }
  const clauses = [...byAction].map(([action, things]) => `${VERBS[action]} ${listText(things)}`);
  const text = clauses.join("; ");
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

const listText = (things: string[]) =>
  things.length < 2 ? (things[0] ?? "") : `${things.slice(0, -1).join(", ")} and ${things.at(-1)}`;

const named = (routing: Pick<Routing, "guardrails">, name: string): NamedPolicy => {
  const policy = routing.guardrails.get(name);
  return { name, does: policy ? policyDoes(policy) : null };
};

/**
 * The policy a key is under, for its page, its team's as this instance knows it (LevelDirectory); with
 * neither a policy of its own nor its team's, the aliases that name one say which calls are checked.
 */
export function keyGuardrails(
  key: { guardrails: string | null; team_id: string | null },
  levels: Pick<LevelDirectory, "team" | "teamGuardrails">,
  routing: Pick<Routing, "aliases" | "guardrails">,
): KeyGuardrails {
  if (key.guardrails !== null) return { source: "key", ...named(routing, key.guardrails) };
  const teamPolicy = key.team_id === null ? undefined : levels.teamGuardrails(key.team_id);
  if (key.team_id !== null && teamPolicy !== undefined) {
    const team = levels.team(key.team_id)?.name ?? key.team_id;
    return { source: "team", team, ...named(routing, teamPolicy) };
  }
  const aliases = [...routing.aliases].flatMap(([alias, { guardrails }]) =>
    guardrails === undefined ? [] : [{ alias, ...named(routing, guardrails) }],
  );
  return aliases.length ? { source: "alias", aliases } : { source: "none" };
}
