import type { Database } from "../../db/client.ts";
import type { KeyRecord } from "../keys/record.ts";
import {
  createOrganisation,
  createTeam,
  listTeams,
  removeDomain,
  removeMember,
  setDomain,
  setLevelLimits,
  setMember,
  setTeamGuardrails,
  TeamChangeError,
} from "./team-changes.ts";

/** The operator's team commands, one name each, as the keys CLI and the loopback operator endpoint take them. */
export const TEAM_COMMANDS = [
  "teams",
  "create-org",
  "create-team",
  "add-member",
  "remove-member",
  "set-limits",
  "set-guardrails",
  "add-domain",
  "remove-domain",
] as const;
export type TeamCommand = (typeof TEAM_COMMANDS)[number];

export const isTeamCommand = (verb: string): verb is TeamCommand => (TEAM_COMMANDS as readonly string[]).includes(verb);

/**
 * Runs one team command: what it answers (lines for the CLI), and the keys it revoked (a member's
 * personal keys, when they leave), which the caller puts in its key cache and announces. `policies`:
 * the routing file's guardrail policies, the only names set-guardrails takes.
 */
export async function runTeamCommand(
  db: Database,
  command: TeamCommand,
  input: unknown,
  actor: string,
  policies: { has(name: string): boolean } = new Set<string>(),
): Promise<{ lines: unknown[]; revoked: KeyRecord[] }> {
  const body = (input ?? {}) as never;
  switch (command) {
    case "teams":
      return { lines: await listTeams(db), revoked: [] };
    case "create-org":
      return { lines: [await createOrganisation(db, body, actor)], revoked: [] };
    case "create-team":
      return { lines: [await createTeam(db, body, actor)], revoked: [] };
    case "add-member":
      return { lines: [await setMember(db, body, actor)], revoked: [] };
    case "remove-member": {
      const { revoked, ...line } = await removeMember(db, body, actor);
      return { lines: [{ ...line, revokedKeys: revoked.map((k) => k.id) }], revoked };
    }
    case "set-limits":
      return { lines: [await setLevelLimits(db, body, actor)], revoked: [] };
    case "set-guardrails":
      return { lines: [await setTeamGuardrails(db, body, actor, policies)], revoked: [] };
    case "add-domain":
      return { lines: [await setDomain(db, body, actor)], revoked: [] };
    case "remove-domain":
      return { lines: [await removeDomain(db, body, actor)], revoked: [] };
    default:
      throw new TeamChangeError(`no team command ${String(command)}`, 404);
  }
}
