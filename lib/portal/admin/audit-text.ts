import { cachePolicyText, modelRulesText } from "../keys/enforced-limits.ts";
import { formatAmount } from "../../usage/budget-text.ts";
import { isOperatorScope } from "../../gateway/keys/record.ts";
import { lastDay } from "../keys/expiry-day.ts";
import { formatUtc } from "../pages/format.ts";

/** Names the audit page can put on the ids an entry holds, read for the entries on screen. */
export type AuditNames = {
  /** user id → email (null: the account has no address) */
  people: ReadonlyMap<string, string | null>;
  keys: ReadonlyMap<string, { name: string; prefix: string }>;
  /** key request id → the key name asked for */
  requests: ReadonlyMap<string, string>;
};

const ACTIONS: Record<string, string> = {
  "key.create": "Key created",
  "key.revoke": "Key revoked",
  "key.rename": "Key renamed",
  "key.scopes": "Key areas changed",
  "key.limits": "Key limits changed",
  "key.models": "Key model rules changed",
  "key.cache": "Key cache policy changed",
  "key.guardrails": "Key guardrail policy changed",
  "key.rotate": "Key rotated",
  "key_request.create": "Key requested",
  "key_request.approve": "Request approved",
  "key_request.decline": "Request declined",
  "key_request.withdraw": "Request withdrawn",
  "key_request.rename": "Request renamed",
  "cache.clear": "Response cache cleared",
  "key.budget": "Key budget set",
  "key.budget.remove": "Key budget removed",
  "key.update": "Key changed",
  "limits.set": "Level limits set",
  "price.set": "Price set",
  "price.reset": "Price reset to its default",
  "routing.save": "Routing file saved",
  "organisation.create": "Organisation created",
  "organisation.domain": "Organisation domain added",
  "organisation.domain_removed": "Organisation domain removed",
  "team.create": "Team created",
  "team.invite": "Member invited",
  "team.member": "Member role set",
  "team.remove_member": "Member removed",
  "team.guardrails": "Team guardrail policy set",
  "team.join_request": "Asked to join",
  "team.join_declined": "Join request declined",
};

export function actionText(action: string): string {
  return ACTIONS[action] ?? action;
}

/** Who did it: an address where one is known, otherwise what the actor was (the CLI, the approval policy…). */
export function actorText(actor: string, names: AuditNames): string {
  if (actor.startsWith("user:")) {
    const id = actor.slice(5);
    return names.people.get(id) ?? `an account without an address (${id})`;
  }
  if (actor === "auto-approve") return "the approval policy (KEY_APPROVAL=auto)";
  if (actor.startsWith("auto-approve:")) return `the approval policy (domain ${actor.slice(13)})`;
  if (actor === "cli") return "the operator CLI (npm run keys)";
  if (actor === "operator-cli") return "the operator CLI, through the server";
  if (actor.startsWith("migration:")) return `database migration ${actor.slice(10)}`;
  return actor;
}

const keyText = (id: string, names: AuditNames) => {
  const key = names.keys.get(id);
  return key ? `“${key.name}” (${key.prefix}…)` : id;
};

/** What it was done to: a key by name and prefix, a request by the name asked for. */
export function targetText(target: string | null, names: AuditNames): string {
  if (!target) return "—";
  if (target.startsWith("key_")) return `key ${keyText(target, names)}`;
  const request = names.requests.get(target);
  if (target.startsWith("kr_")) return request ? `request for “${request}”` : `request ${target}`;
  return target;
}

type Fields = Record<string, unknown>;
const isFields = (v: unknown): v is Fields => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

const areas = (v: unknown) => (Array.isArray(v) && v.length ? `areas ${v.map(String).join(", ")}` : "every area");

const patterns = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : []);
const LIMIT_WORDS = { day: "per day", minute: "per minute", concurrency: "at once" } as const;
const limitValue = (v: unknown) => (typeof v === "number" ? v.toLocaleString("en") : "default");
// Token windows have no default: an unset one is no limit.
const TOKEN_WORDS = { tokensMinute: "tokens a minute", tokensDay: "tokens a day" } as const;
const tokenValue = (v: unknown) => (typeof v === "number" ? v.toLocaleString("en") : "none");

/** A plain value as words: no braces or quotes of JSON. */
function plain(value: unknown): string {
  if (value === null || value === undefined) return "none";
  if (Array.isArray(value)) return value.length ? value.map(plain).join(", ") : "none";
  if (isFields(value))
    return Object.entries(value)
      .map(([k, v]) => `${k.replaceAll("_", " ")} ${plain(v)}`)
      .join(", ");
  return String(value);
}

/**
 * The entry's detail in a sentence a person reads, per action; other actions get their fields as words.
 * `target` is the entry's: a created key whose target already names it is not named twice.
 */
export function detailText(action: string, detail: unknown, names: AuditNames, target?: string | null): string {
  if (!isFields(detail)) return detail === null || detail === undefined ? "" : plain(detail);
  const d = detail;
  switch (action) {
    case "key.create": {
      const named = target ? names.keys.has(target) : false;
      const parts = named ? [] : [`“${str(d.name) ?? "?"}”`, d.prefix ? `${plain(d.prefix)}…` : ""];
      if (d.kind === "console") parts.push("the portal's console key");
      if (d.request) parts.push("picked up from its approved request");
      return parts.filter(Boolean).join(", ");
    }
    case "key.rename":
    case "key_request.rename":
      return `“${plain(d.from)}” → “${plain(d.to)}”`;
    case "key.scopes":
      return `${areas(d.from)} → ${areas(d.to)}`;
    case "key.limits": {
      const from = isFields(d.from) ? d.from : {};
      const to = isFields(d.to) ? d.to : {};
      const changed = (Object.keys(LIMIT_WORDS) as (keyof typeof LIMIT_WORDS)[])
        .filter((w) => from[w] !== to[w])
        .map((w) => `${LIMIT_WORDS[w]} ${limitValue(from[w])} → ${limitValue(to[w])}`);
      for (const w of Object.keys(TOKEN_WORDS) as (keyof typeof TOKEN_WORDS)[])
        if (w in to && (from[w] ?? null) !== (to[w] ?? null))
          changed.push(`${TOKEN_WORDS[w]} ${tokenValue(from[w])} → ${tokenValue(to[w])}`);
      return changed.length ? changed.join("; ") : "no change";
    }
    case "key.models": {
      const from = isFields(d.from) ? d.from : {};
      const to = isFields(d.to) ? d.to : {};
      const rules = (r: Record<string, unknown>) =>
        modelRulesText({ allow: patterns(r.allow), deny: patterns(r.deny) });
      return `${rules(from)} → ${rules(to)}`;
    }
    case "key.cache": {
      const policy = (r: unknown) => {
        const f = isFields(r) ? r : {};
        const maxAge = typeof f.max_age === "number" ? f.max_age : null;
        return cachePolicyText({ max_age: maxAge, semantic: f.semantic === true, scope: str(f.scope) ?? "key" });
      };
      return `${policy(d.from)} → ${policy(d.to)}`;
    }
    case "key.guardrails":
      return `${str(d.from) ?? "none"} → ${str(d.to) ?? "none"}`;
    case "team.guardrails":
      return str(d.guardrails) ?? "none";
    case "key.rotate": {
      const replacement = str(d.replacement);
      const by = replacement && names.keys.has(replacement) ? keyText(replacement, names) : `${plain(d.prefix)}…`;
      const until = str(d.old_expires_at);
      const grace = typeof d.grace_hours === "number" ? ` (${d.grace_hours} h grace)` : "";
      return `replaced by ${by}${until ? `; old key valid until ${formatUtc(until)}${grace}` : ""}`;
    }
    case "key_request.create": {
      const expires = str(d.expires_at);
      return [
        `“${str(d.name) ?? "?"}”`,
        d.use_type ? `${plain(d.use_type)} use` : "",
        areas(d.scopes),
        expires ? `until ${expires.slice(0, 10)}` : "no expiry",
      ]
        .filter(Boolean)
        .join(", ");
    }
    case "key.update": {
      const from = isFields(d.from) ? d.from : {};
      const to = isFields(d.to) ? d.to : {};
      const expiry = (v: unknown) => (typeof v === "string" ? `last day ${lastDay(new Date(v))}` : "no expiry");
      const words: Record<string, [string, (v: unknown) => string]> = {
        name: ["name", (v) => `“${plain(v)}”`],
        scopes: ["", (v) => areas(Array.isArray(v) ? v.filter((s) => !isOperatorScope(String(s))) : v)],
        expiresAt: ["", expiry],
        dayLimit: ["per day", limitValue],
        minuteLimit: ["per minute", limitValue],
        concurrencyLimit: ["at once", limitValue],
        tokenMinuteLimit: ["tokens a minute", tokenValue],
        tokenDayLimit: ["tokens a day", tokenValue],
      };
      const changed = Object.entries(words)
        .filter(([k]) => k in to && JSON.stringify(from[k] ?? null) !== JSON.stringify(to[k] ?? null))
        .map(([k, [label, text]]) => `${label ? `${label} ` : ""}${text(from[k])} → ${text(to[k])}`);
      return changed.length ? changed.join("; ") : "no change";
    }
    case "key.budget": {
      const metric = d.metric === "tokens" || d.metric === "cost" ? d.metric : "requests";
      const limit = typeof d.limit === "number" ? formatAmount(metric, d.limit) : "?";
      const stop = d.hard_stop === true ? "requests refused once it is used up" : "alerts only, never refused";
      return `${limit} a month, ${stop}`;
    }
    case "key_request.approve":
    case "key_request.decline":
      return d.note ? `note: “${plain(d.note)}”` : "";
    default:
      return plain(d);
  }
}
