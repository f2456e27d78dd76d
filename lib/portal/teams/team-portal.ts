import { createHash, randomBytes, randomUUID } from "node:crypto";
import { z } from "zod";
import type { Database } from "../../db/client.ts";
import { createKey, type CreatedKey } from "../../gateway/keys/key-changes.ts";
import type { KeyRecord } from "../../gateway/keys/record.ts";
import { domainOf, isAdminRole, removeMember, ROLES, setMember, type Role } from "../../gateway/teams/team-changes.ts";
import type { Mailer } from "../mail.ts";

/** A portal team action refused: 403 (the role does not allow it), 404 (no such team among yours), 409 (the state does not). */
export class TeamActionError extends Error {
  override name = "TeamActionError";
  constructor(
    message: string,
    readonly status: 403 | 404 | 409,
  ) {
    super(message);
  }
}

/** The signed-in user acting on the portal. */
export type PortalUser = { id: string; email: string | null };

/** How long an invitation's link works. */
export const INVITATION_DAYS = 7;

const email = z.string().trim().toLowerCase().email().max(320);
export const inviteInput = z.object({ email, role: z.enum(["admin", "member", "viewer"]).default("member") });
export const roleInput = z.object({ email, role: z.enum(ROLES) });
export const removeInput = z.object({ email });
export const decisionInput = z.object({
  email,
  // A form sends "true" or "false".
  approve: z.preprocess((v) => (v === "true" ? true : v === "false" ? false : v), z.boolean()),
});
export const teamKeyInput = z.object({
  name: z.string().trim().min(1).max(100),
  /** The team's own key (stays when members go): owners and admins only. Else the member's personal key for the team. */
  shared: z.boolean().default(false),
});

const tokenHash = (token: string) => createHash("sha256").update(token).digest("hex");

/** The teams a user belongs to, with their role in each: the portal's team picker. */
export async function myTeams(db: Database, userId: string) {
  const rows = await db.prisma.teamMember.findMany({
    where: { userId },
    include: { team: { include: { organisation: true } } },
    orderBy: { createdAt: "asc" },
  });
  return rows.map((m) => ({
    id: m.team.id,
    name: m.team.name,
    organisation: { id: m.team.organisation.id, name: m.team.organisation.name },
    role: m.role as Role,
  }));
}

/** The user's membership of a team: a team they are not in is 404, as if it did not exist. */
async function membership(db: Database, user: PortalUser, teamId: string) {
  const m = await db.prisma.teamMember.findUnique({
    where: { teamId_userId: { teamId, userId: user.id } },
    include: { team: { include: { organisation: true } } },
  });
  if (!m) throw new TeamActionError("no such team among yours", 404);
  return { team: m.team, role: m.role as Role };
}

async function asAdmin(db: Database, user: PortalUser, teamId: string, what: string) {
  const m = await membership(db, user, teamId);
  if (!isAdminRole(m.role)) throw new TeamActionError(`only the team's owner or an admin may ${what}`, 403);
  return m;
}

const actorOf = (user: PortalUser) => user.email ?? `user:${user.id}`;

/**
 * A team as its member sees it: members and roles; its keys — every one to an owner or admin, the
 * team's own and their own to a member or viewer; open invitations to owners and admins.
 */
export async function teamView(db: Database, user: PortalUser, teamId: string) {
  const { team, role } = await membership(db, user, teamId);
  const admin = isAdminRole(role);
  const [members, keys, invitations, joinRequests] = await Promise.all([
    db.prisma.teamMember.findMany({
      where: { teamId },
      include: { user: { select: { email: true } } },
      orderBy: { createdAt: "asc" },
    }),
    db.prisma.apiKey.findMany({
      where: { teamId, ...(admin ? {} : { OR: [{ userId: null }, { userId: user.id }] }) },
      include: { user: { select: { email: true } } },
      orderBy: { createdAt: "desc" },
    }),
    admin
      ? db.prisma.teamInvitation.findMany({
          where: { teamId, acceptedAt: null, expiresAt: { gt: new Date() } },
          orderBy: { createdAt: "desc" },
        })
      : [],
    admin
      ? db.prisma.teamJoinRequest.findMany({
          where: { teamId, status: "pending" },
          include: { user: { select: { email: true } } },
          orderBy: { createdAt: "asc" },
        })
      : [],
  ]);
  return {
    team: { id: team.id, name: team.name, organisation: { id: team.organisation.id, name: team.organisation.name } },
    role,
    members: members.map((m) => ({ email: m.user.email, role: m.role as Role, you: m.userId === user.id })),
    keys: keys.map((k) => ({
      id: k.id,
      name: k.name,
      prefix: k.prefix,
      status: k.status,
      holder: k.user?.email ?? null,
      createdAt: k.createdAt.toISOString(),
    })),
    invitations: invitations.map((i) => ({
      id: i.id,
      email: i.email,
      role: i.role,
      expiresAt: i.expiresAt.toISOString(),
    })),
    joinRequests: joinRequests.map((r) => ({ email: r.user.email, createdAt: r.createdAt.toISOString() })),
  };
}

/**
 * The team a user may ask to join through their address's domain (an operator verified it as the
 * organisation's, naming the team), unless they are in it; with whether they asked already.
 */
export async function joinOffer(db: Database, user: PortalUser) {
  const domain = await domainOf(db, user.email);
  if (!domain?.joinTeam) return null;
  const team = domain.joinTeam;
  const [member, request] = await Promise.all([
    db.prisma.teamMember.findUnique({ where: { teamId_userId: { teamId: team.id, userId: user.id } } }),
    db.prisma.teamJoinRequest.findUnique({ where: { teamId_userId: { teamId: team.id, userId: user.id } } }),
  ]);
  if (member) return null;
  return {
    domain: domain.domain,
    organisation: domain.organisation.name,
    team: { id: team.id, name: team.name },
    status: (request?.status ?? null) as "pending" | "declined" | null,
  };
}

/** Asks to join the team the user's verified domain offers; its owner or an admin decides. */
export async function askToJoin(db: Database, user: PortalUser, teamId: string) {
  const offer = await joinOffer(db, user);
  if (offer?.team.id !== teamId)
    throw new TeamActionError("no such team among those your address may ask to join", 404);
  const fields = { status: "pending", decidedAt: null, decidedBy: null };
  await db.prisma.$transaction([
    db.prisma.teamJoinRequest.upsert({
      where: { teamId_userId: { teamId, userId: user.id } },
      create: { teamId, userId: user.id },
      update: fields,
    }),
    db.prisma.auditLog.create({
      data: { actor: actorOf(user), action: "team.join_request", target: teamId, detail: { domain: offer.domain } },
    }),
  ]);
  return { team: offer.team, status: "pending" };
}

/** Approves (they become a member) or declines a pending request to join. Owners and admins only. */
export async function decideJoin(db: Database, user: PortalUser, teamId: string, input: unknown) {
  await asAdmin(db, user, teamId, "decide who joins");
  const data = decisionInput.parse(input);
  const request = await db.prisma.teamJoinRequest.findFirst({
    where: { teamId, status: "pending", user: { email: data.email } },
  });
  if (!request) throw new TeamActionError(`${data.email} has not asked to join this team`, 404);
  await db.prisma.teamJoinRequest.update({
    where: { teamId_userId: { teamId, userId: request.userId } },
    data: { status: data.approve ? "approved" : "declined", decidedAt: new Date(), decidedBy: actorOf(user) },
  });
  if (data.approve) await setMember(db, { team: teamId, email: data.email, role: "member" }, actorOf(user));
  else
    await db.prisma.auditLog.create({
      data: { actor: actorOf(user), action: "team.join_declined", target: teamId, detail: { email: data.email } },
    });
  return { email: data.email, approved: data.approve };
}

/**
 * Invites an address to a team with a role below owner (ownership moves by a role change): mails a link
 * that only that address can accept, once, within INVITATION_DAYS. Owners and admins only.
 */
export async function invite(
  db: Database,
  mailer: Mailer,
  origin: string,
  user: PortalUser,
  teamId: string,
  input: unknown,
): Promise<{ email: string; role: string; mailed: boolean; link?: string }> {
  const { team } = await asAdmin(db, user, teamId, "invite members");
  const data = inviteInput.parse(input);
  const already = await db.prisma.teamMember.findFirst({ where: { teamId, user: { email: data.email } } });
  if (already) throw new TeamActionError(`${data.email} is already a member of ${team.name}`, 409);
  const token = randomBytes(24).toString("base64url");
  const expiresAt = new Date(Date.now() + INVITATION_DAYS * 86_400_000);
  await db.prisma.$transaction([
    db.prisma.teamInvitation.create({
      data: {
        id: `inv_${randomUUID().replaceAll("-", "")}`,
        teamId,
        email: data.email,
        role: data.role,
        tokenHash: tokenHash(token),
        invitedBy: actorOf(user),
        expiresAt,
      },
    }),
    db.prisma.auditLog.create({
      data: { actor: actorOf(user), action: "team.invite", target: teamId, detail: data },
    }),
  ]);
  const link = `${origin}/teams/join/${token}`;
  const text = `${actorOf(user)} invites you to the team ${team.name} as ${data.role === "admin" ? "an admin" : `a ${data.role}`}.\n\nAccept (signed in as ${data.email}, within ${INVITATION_DAYS} days): ${link}\n`;
  const mailed = await mailer.send({ to: data.email, subject: `Join ${team.name}`, text });
  // Without SMTP the inviter passes the link on themself: it is shown to them, never logged.
  return { email: data.email, role: data.role, mailed, ...(!mailed && { link }) };
}

/** What an invitation link offers, before it is accepted: 404 when it is unknown, used or expired. */
export async function invitationOf(db: Database, token: string) {
  const row = await db.prisma.teamInvitation.findUnique({
    where: { tokenHash: tokenHash(token) },
    include: { team: { include: { organisation: true } } },
  });
  if (!row || row.acceptedAt || row.expiresAt <= new Date())
    throw new TeamActionError("this invitation is unknown, used or expired: ask for a new one", 404);
  return { email: row.email, role: row.role, team: { id: row.team.id, name: row.team.name }, row };
}

/** Accepts an invitation: only the invited address may, and only once. */
export async function acceptInvitation(db: Database, user: PortalUser, token: string) {
  const { row, team } = await invitationOf(db, token);
  if (!user.email || user.email.toLowerCase() !== row.email)
    throw new TeamActionError(`this invitation is for ${row.email}: sign in with that address to accept it`, 403);
  const taken = await db.prisma.teamInvitation.updateMany({
    where: { id: row.id, acceptedAt: null },
    data: { acceptedAt: new Date() },
  });
  if (taken.count === 0) throw new TeamActionError("this invitation is already used", 404);
  const member = await db.prisma.teamMember.findUnique({
    where: { teamId_userId: { teamId: team.id, userId: user.id } },
  });
  // Accepting never lowers a role held already.
  if (!member) await setMember(db, { team: team.id, email: row.email, role: row.role as Role }, actorOf(user));
  return team;
}

/**
 * Changes a member's role. An admin may make members and viewers members, viewers or admins; only the
 * owner may touch an admin or hand ownership over (naming a new owner makes them an admin).
 */
export async function changeRole(db: Database, user: PortalUser, teamId: string, input: unknown) {
  const { role: mine } = await asAdmin(db, user, teamId, "change roles");
  const data = roleInput.parse(input);
  const target = await db.prisma.teamMember.findFirst({ where: { teamId, user: { email: data.email } } });
  if (!target) throw new TeamActionError(`${data.email} is not a member of this team`, 404);
  if (target.role === "owner") throw new TeamActionError("the owner's role changes when they hand ownership over", 409);
  if (mine !== "owner" && (data.role === "owner" || target.role === "admin"))
    throw new TeamActionError("only the team's owner may change an admin or hand ownership over", 403);
  return setMember(db, { team: teamId, email: data.email, role: data.role }, actorOf(user));
}

/**
 * Removes a member (their personal keys for the team are revoked; returned for the key caches). Admins
 * remove members and viewers; the owner removes admins too; nobody removes the owner.
 */
export async function removeFromTeam(db: Database, user: PortalUser, teamId: string, input: unknown) {
  const { role: mine } = await asAdmin(db, user, teamId, "remove members");
  const data = removeInput.parse(input);
  const target = await db.prisma.teamMember.findFirst({ where: { teamId, user: { email: data.email } } });
  if (!target) throw new TeamActionError(`${data.email} is not a member of this team`, 404);
  if (target.role === "owner") throw new TeamActionError("the owner cannot be removed: hand ownership over first", 409);
  if (target.role === "admin" && mine !== "owner")
    throw new TeamActionError("only the team's owner may remove an admin", 403);
  return removeMember(db, { team: teamId, email: data.email }, actorOf(user));
}

/** Leaves a team: the member's personal keys for it are revoked. The owner hands ownership over first. */
export async function leaveTeam(db: Database, user: PortalUser, teamId: string): Promise<{ revoked: KeyRecord[] }> {
  const { role } = await membership(db, user, teamId);
  if (role === "owner") throw new TeamActionError("the owner cannot leave: hand ownership over first", 409);
  if (!user.email) throw new TeamActionError("an account without an address cannot leave by the portal", 409);
  return removeMember(db, { team: teamId, email: user.email }, actorOf(user));
}

/** A key for the team: the member's personal key (not for a viewer), or with `shared` the team's own (owners and admins). */
export async function createTeamKey(
  db: Database,
  user: PortalUser,
  teamId: string,
  input: unknown,
): Promise<CreatedKey> {
  const { role } = await membership(db, user, teamId);
  const data = teamKeyInput.parse(input);
  if (role === "viewer") throw new TeamActionError("a viewer sees the team but holds no keys for it", 403);
  if (data.shared && !isAdminRole(role))
    throw new TeamActionError("only the team's owner or an admin may make the team's own keys", 403);
  if (!data.shared && !user.email) throw new TeamActionError("an account without an address holds no team keys", 409);
  return createKey(
    db,
    { name: data.name, team: teamId, ...(data.shared ? {} : { email: user.email! }) },
    actorOf(user),
  );
}
