import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { Database } from "../../db/client.ts";
import { Prisma } from "../../db/generated/client.ts";
import { storable } from "../keys/key-rules.ts";
import { toKeyRecord, type KeyRecord } from "../keys/record.ts";
import { toLevelLimits, type LevelLimits } from "./level-directory.ts";
import { LEVELS } from "./levels.ts";
import { BUDGET_METRICS } from "../../usage/budgets.ts";

/** A team member's role, most rights first: owner (one per team), admin, member, viewer. */
export const ROLES = ["owner", "admin", "member", "viewer"] as const;
export type Role = (typeof ROLES)[number];

/** Roles that manage a team's members and keys. */
export const isAdminRole = (role: string): boolean => role === "owner" || role === "admin";

/** A change refused for what it asks (a taken name, an unknown team or policy): 409, 404 or 400, with the reason. */
export class TeamChangeError extends Error {
  override name = "TeamChangeError";
  constructor(
    message: string,
    readonly status: 400 | 404 | 409,
  ) {
    super(message);
  }
}

const name = storable(z.string().trim().min(1).max(100));
const id = z.string().trim().min(1).max(100);
const email = z.string().trim().toLowerCase().email().max(320);
const limit = z.number().int().positive().nullable().optional();

export const organisationInput = z.object({ name });
export const teamInput = z.object({ organisation: id, name });
export const memberInput = z.object({ team: id, email, role: z.enum(ROLES).default("member") });
export const removalInput = z.object({ team: id, email });
export const levelLimitsInput = z.object({
  level: z.enum(LEVELS),
  /** An organisation's or team's id or name; a user's email address. */
  subject: z.string().trim().min(1).max(320),
  minute: limit,
  day: limit,
  tokensMinute: limit,
  tokensDay: limit,
  /** A monthly budget across the level's keys (null removes it): cost in USD by default. */
  budget: z
    .object({
      metric: z.enum(BUDGET_METRICS).default("cost"),
      limit: z.number().positive().max(1e12),
      /** False: alerts at 80 % and 100 % only, no refusal. */
      hardStop: z.boolean().default(true),
    })
    .nullable()
    .optional(),
});

/** A mail domain, as the part of an address after its @ (lower case, at least one dot). */
const domain = z
  .string()
  .trim()
  .toLowerCase()
  .max(253)
  .regex(/^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/, "a mail domain such as acme.com");
export const domainInput = z.object({
  organisation: id,
  domain,
  /** Its addresses sign in only through the OpenID Connect provider. */
  requireSso: z.boolean().default(false),
  /** The organisation's team its users may ask to join (null: none). */
  joinTeam: id.nullable().optional(),
});
export const domainRemovalInput = z.object({ domain });
export const teamGuardrailsInput = z.object({
  team: id,
  /** A policy of the routing file's "guardrails"; null clears the team's. */
  guardrails: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, "a guardrail policy's name")
    .nullable(),
});

/** Turns a unique-index violation (a name taken, case-insensitively) into the 409 that says so. */
async function named<T>(what: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002")
      throw new TeamChangeError(`${what} is taken`, 409);
    throw err;
  }
}

export async function createOrganisation(
  db: Database,
  input: z.input<typeof organisationInput>,
  actor: string,
): Promise<{ id: string; name: string }> {
  const data = organisationInput.parse(input);
  const created = { id: `org_${randomUUID().replaceAll("-", "")}`, name: data.name };
  await named(`the organisation name ${JSON.stringify(data.name)}`, () =>
    db.prisma.$transaction([
      db.prisma.organisation.create({ data: created }),
      db.prisma.auditLog.create({ data: { actor, action: "organisation.create", target: created.id, detail: data } }),
    ]),
  );
  return created;
}

/** An organisation by id, or by its name (case-insensitively). */
async function organisationOf(db: Database, ref: string) {
  const found =
    (await db.prisma.organisation.findUnique({ where: { id: ref } })) ??
    (await db.prisma.organisation.findFirst({ where: { name: { equals: ref, mode: "insensitive" } } }));
  if (!found) throw new TeamChangeError(`no organisation ${JSON.stringify(ref)}`, 404);
  return found;
}

/** A team by id, or by its name when only one team has it (in a transaction, or on the database). */
async function teamOf(client: Pick<Database["prisma"], "team">, ref: string) {
  const byId = await client.team.findUnique({ where: { id: ref } });
  if (byId) return byId;
  const byName = await client.team.findMany({ where: { name: { equals: ref, mode: "insensitive" } }, take: 2 });
  if (byName.length === 1) return byName[0]!;
  throw new TeamChangeError(
    byName.length
      ? `several teams are named ${JSON.stringify(ref)}: give the team's id`
      : `no team ${JSON.stringify(ref)}`,
    404,
  );
}

export async function createTeam(
  db: Database,
  input: z.input<typeof teamInput>,
  actor: string,
): Promise<{ id: string; name: string; organisation: string }> {
  const data = teamInput.parse(input);
  const organisation = await organisationOf(db, data.organisation);
  const created = { id: `team_${randomUUID().replaceAll("-", "")}`, name: data.name, organisationId: organisation.id };
  await named(`the team name ${JSON.stringify(data.name)} in ${organisation.name}`, () =>
    db.prisma.$transaction([
      db.prisma.team.create({ data: created }),
      db.prisma.auditLog.create({
        data: {
          actor,
          action: "team.create",
          target: created.id,
          detail: { name: data.name, organisation: organisation.id },
        },
      }),
    ]),
  );
  return { id: created.id, name: created.name, organisation: organisation.id };
}

/**
 * Adds a member to a team with a role, or changes their role. A team has one owner: naming a new owner
 * makes the previous one an admin (the ownership transfer). The account is made for an address that has
 * none yet, as a key for it would be.
 */
export async function setMember(
  db: Database,
  input: z.input<typeof memberInput>,
  actor: string,
): Promise<{ team: string; email: string; role: Role; previousOwner?: string }> {
  const data = memberInput.parse(input);
  const team = await teamOf(db.prisma, data.team);
  return db.prisma.$transaction(async (tx) => {
    const user = await tx.user.upsert({
      where: { email: data.email },
      create: { id: randomUUID(), email: data.email },
      update: {},
    });
    let previousOwner: string | undefined;
    if (data.role === "owner") {
      const owner = await tx.teamMember.findFirst({
        where: { teamId: team.id, role: "owner", NOT: { userId: user.id } },
        include: { user: true },
      });
      if (owner) {
        await tx.teamMember.update({
          where: { teamId_userId: { teamId: team.id, userId: owner.userId } },
          data: { role: "admin" },
        });
        previousOwner = owner.user.email ?? owner.userId;
      }
    }
    await tx.teamMember.upsert({
      where: { teamId_userId: { teamId: team.id, userId: user.id } },
      create: { teamId: team.id, userId: user.id, role: data.role },
      update: { role: data.role },
    });
    await tx.auditLog.create({
      data: {
        actor,
        action: "team.member",
        target: team.id,
        detail: { email: data.email, role: data.role, ...(previousOwner && { previousOwner }) },
      },
    });
    return { team: team.id, email: data.email, role: data.role, ...(previousOwner && { previousOwner }) };
  });
}

/**
 * Removes a member from a team: their personal keys for it are revoked (returned, for the key caches);
 * the team's own keys stay with the team. The owner is not removed: transfer ownership first.
 */
export async function removeMember(
  db: Database,
  input: z.input<typeof removalInput>,
  actor: string,
): Promise<{ team: string; email: string; revoked: KeyRecord[] }> {
  const data = removalInput.parse(input);
  const team = await teamOf(db.prisma, data.team);
  const user = await db.prisma.user.findUnique({ where: { email: data.email } });
  const membership =
    user && (await db.prisma.teamMember.findUnique({ where: { teamId_userId: { teamId: team.id, userId: user.id } } }));
  if (!user || !membership) throw new TeamChangeError(`${data.email} is not a member of ${team.name}`, 404);
  if (membership.role === "owner")
    throw new TeamChangeError(`${data.email} owns ${team.name}: make another member the owner first`, 409);
  const revoked = await db.prisma.$transaction(async (tx) => {
    await tx.teamMember.delete({ where: { teamId_userId: { teamId: team.id, userId: user.id } } });
    const keys = await tx.apiKey.findMany({ where: { teamId: team.id, userId: user.id, status: "active" } });
    const rows = await Promise.all(
      keys.map((k) => tx.apiKey.update({ where: { id: k.id }, data: { status: "revoked" } })),
    );
    await tx.auditLog.create({
      data: {
        actor,
        action: "team.remove_member",
        target: team.id,
        detail: { email: data.email, revokedKeys: keys.map((k) => k.id) },
      },
    });
    return rows;
  });
  return { team: team.id, email: data.email, revoked: revoked.map(toKeyRecord) };
}

/**
 * Sets an organisation's, a team's or a user's limits: each window given is set (null clears it), each
 * window not given stays as it was. Every instance applies it within one key refresh interval.
 */
export async function setLevelLimits(
  db: Database,
  input: z.input<typeof levelLimitsInput>,
  actor: string,
): Promise<{ level: string; id: string; limits: LevelLimits }> {
  const data = levelLimitsInput.parse(input);
  const subjectId =
    data.level === "organisation"
      ? (await organisationOf(db, data.subject)).id
      : data.level === "team"
        ? (await teamOf(db.prisma, data.subject)).id
        : await userIdOf(db, data.subject);
  const windows = {
    ...(data.minute !== undefined && { minuteLimit: data.minute }),
    ...(data.day !== undefined && { dayLimit: data.day }),
    ...(data.tokensMinute !== undefined && { tokenMinuteLimit: data.tokensMinute }),
    ...(data.tokensDay !== undefined && { tokenDayLimit: data.tokensDay }),
    ...(data.budget !== undefined && {
      monthlyLimit: data.budget?.limit ?? null,
      budgetMetric: data.budget?.metric ?? null,
      budgetHardStop: data.budget?.hardStop ?? true,
    }),
  };
  const [row] = await db.prisma.$transaction([
    db.prisma.levelLimit.upsert({
      where: { level_subjectId: { level: data.level, subjectId } },
      create: { level: data.level, subjectId, ...windows },
      update: windows,
    }),
    db.prisma.auditLog.create({
      data: { actor, action: "limits.set", target: `${data.level}:${subjectId}`, detail: windows },
    }),
  ]);
  return { level: data.level, id: subjectId, limits: toLevelLimits(row) };
}

/**
 * Names the guardrail policy of a team's keys that have none of their own (null clears it). `policies`
 * are the routing file's: a name it does not declare would refuse every model call of those keys, so it is
 * refused here instead. Every instance applies it within one key refresh interval.
 */
export async function setTeamGuardrails(
  db: Database,
  input: z.input<typeof teamGuardrailsInput>,
  actor: string,
  policies: { has(name: string): boolean },
): Promise<{ team: string; guardrails: string | null }> {
  const data = teamGuardrailsInput.parse(input);
  if (data.guardrails !== null && !policies.has(data.guardrails))
    throw new TeamChangeError(`guardrails: no policy "${data.guardrails}" in the routing file`, 400);
  const team = await teamOf(db.prisma, data.team);
  await db.prisma.$transaction([
    db.prisma.team.update({ where: { id: team.id }, data: { guardrails: data.guardrails } }),
    db.prisma.auditLog.create({
      data: { actor, action: "team.guardrails", target: team.id, detail: { guardrails: data.guardrails } },
    }),
  ]);
  return { team: team.id, guardrails: data.guardrails };
}

async function userIdOf(db: Database, address: string): Promise<string> {
  const parsed = email.safeParse(address);
  if (!parsed.success) throw new TeamChangeError(`a user's limits take their email address, not ${address}`, 404);
  const user = await db.prisma.user.findUnique({ where: { email: parsed.data } });
  if (!user) throw new TeamChangeError(`no account has the address ${parsed.data}`, 404);
  return user.id;
}

/**
 * A key's team, checked: it exists, and a personal key's owner is one of its members (not a viewer);
 * one that manages the team's keys (`admin`: keys:admin) is the team's owner or an admin.
 */
export async function keyTeamOf(
  db: Pick<Database["prisma"], "team" | "teamMember">,
  ref: string,
  userId: string | null,
  admin = false,
): Promise<string> {
  const team = await teamOf(db, ref);
  if (userId) {
    const member = await db.teamMember.findUnique({ where: { teamId_userId: { teamId: team.id, userId } } });
    if (!member) throw new TeamChangeError(`the key's owner is not a member of ${team.name}: add them first`, 409);
    if (member.role === "viewer") throw new TeamChangeError(`a viewer of ${team.name} holds no keys for it`, 409);
    if (admin && !isAdminRole(member.role))
      throw new TeamChangeError(`only an owner or admin of ${team.name} may hold a key that manages its keys`, 409);
  }
  return team.id;
}

/** Every organisation with its teams, their members and the limits set at each level: for the CLI. */
export async function listTeams(db: Database) {
  const [organisations, limits] = await Promise.all([
    db.prisma.organisation.findMany({
      orderBy: { name: "asc" },
      include: {
        domains: { orderBy: { domain: "asc" } },
        teams: {
          orderBy: { name: "asc" },
          include: { members: { include: { user: true } }, _count: { select: { keys: true } } },
        },
      },
    }),
    db.prisma.levelLimit.findMany(),
  ]);
  const limitsOf = (level: string, id: string) => {
    const row = limits.find((l) => l.level === level && l.subjectId === id);
    return row ? toLevelLimits(row) : {};
  };
  return organisations.map((o) => ({
    id: o.id,
    name: o.name,
    limits: limitsOf("organisation", o.id),
    domains: o.domains.map((d) => ({ domain: d.domain, requireSso: d.requireSso, joinTeam: d.joinTeamId })),
    teams: o.teams.map((t) => ({
      id: t.id,
      name: t.name,
      guardrails: t.guardrails,
      limits: limitsOf("team", t.id),
      keys: t._count.keys,
      members: t.members.map((m) => ({ email: m.user.email, role: m.role, limits: limitsOf("user", m.userId) })),
    })),
  }));
}

/**
 * Declares a mail domain the organisation's, as its operator verified: with requireSso its addresses
 * sign in only through the OpenID Connect provider; with joinTeam its users may ask to join that team.
 */
export async function setDomain(db: Database, input: z.input<typeof domainInput>, actor: string) {
  const data = domainInput.parse(input);
  const organisation = await organisationOf(db, data.organisation);
  const taken = await db.prisma.organisationDomain.findUnique({ where: { domain: data.domain } });
  if (taken && taken.organisationId !== organisation.id)
    throw new TeamChangeError(`${data.domain} is another organisation's domain`, 409);
  let joinTeamId: string | null = null;
  if (data.joinTeam) {
    const team = await teamOf(db.prisma, data.joinTeam);
    if (team.organisationId !== organisation.id)
      throw new TeamChangeError(`${team.name} is not a team of ${organisation.name}`, 409);
    joinTeamId = team.id;
  }
  const fields = { requireSso: data.requireSso, joinTeamId };
  await db.prisma.$transaction([
    db.prisma.organisationDomain.upsert({
      where: { domain: data.domain },
      create: { domain: data.domain, organisationId: organisation.id, ...fields },
      update: fields,
    }),
    db.prisma.auditLog.create({
      data: {
        actor,
        action: "organisation.domain",
        target: organisation.id,
        detail: { domain: data.domain, ...fields },
      },
    }),
  ]);
  return { organisation: organisation.id, domain: data.domain, ...fields };
}

/** Takes a domain back from its organisation: its addresses sign in any way again, and ask to join nothing. */
export async function removeDomain(db: Database, input: z.input<typeof domainRemovalInput>, actor: string) {
  const data = domainRemovalInput.parse(input);
  const row = await db.prisma.organisationDomain.findUnique({ where: { domain: data.domain } });
  if (!row) throw new TeamChangeError(`no organisation has the domain ${data.domain}`, 404);
  await db.prisma.$transaction([
    db.prisma.organisationDomain.delete({ where: { domain: data.domain } }),
    db.prisma.auditLog.create({
      data: {
        actor,
        action: "organisation.domain_removed",
        target: row.organisationId,
        detail: { domain: data.domain },
      },
    }),
  ]);
  return { organisation: row.organisationId, domain: data.domain, removed: true };
}

/** The organisation domain an address is at, if an operator declared it. */
export async function domainOf(db: Database, address: string | null | undefined) {
  const at = address?.lastIndexOf("@") ?? -1;
  if (!address || at < 0) return null;
  return db.prisma.organisationDomain.findUnique({
    where: { domain: address.slice(at + 1).toLowerCase() },
    include: { organisation: true, joinTeam: true },
  });
}
