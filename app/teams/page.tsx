import type { Metadata } from "next";
import Link from "next/link";
import { DataTable } from "@/components/portal/data-table";
import { Section } from "@/components/portal/section";
import { RolePicker, TeamField, TeamForm } from "@/components/portal/team-forms";
import { getGateway } from "@/lib/instance.ts";
import { ROLES } from "@/lib/gateway/teams/team-changes.ts";
import { formatUsd, formatUtc } from "@/lib/portal/pages/format.ts";
import { requireSession } from "@/lib/portal/sign-in/session.ts";
import { joinOffer, myTeams, teamView } from "@/lib/portal/teams/team-portal.ts";
import { usageReport } from "@/lib/portal/usage/report.ts";
import { groupKeys } from "@/lib/portal/usage/summary.ts";

export const metadata: Metadata = { title: "Teams · Unified API Gateway" };
export const dynamic = "force-dynamic";

type Props = { searchParams: Promise<{ team?: string }> };

const cell = "px-3 py-2";

/**
 * The user's teams: a picker, then the chosen team as their role sees it — members and roles, keys,
 * the last 30 days of usage by member and key — and what their role may do there.
 */
export default async function TeamsPage({ searchParams }: Props) {
  const session = await requireSession("/teams");
  const { rt } = await getGateway();
  const user = { id: session.user.id, email: session.user.email ?? null };
  const [teams, offer] = await Promise.all([myTeams(rt.db, user.id), joinOffer(rt.db, user)]);
  const offered = offer && <JoinOffer offer={offer} />;
  const wanted = (await searchParams).team;
  const chosen = teams.find((t) => t.id === wanted) ?? teams[0];

  if (!chosen)
    return (
      <main className="mx-auto max-w-5xl px-4 py-10 sm:px-6">
        <h1 className="text-3xl font-bold">Teams</h1>
        <p className="mt-4">
          You are in no team yet. A team&apos;s owner or admin invites you by email; the link in that mail brings you
          in. Your own keys are on{" "}
          <Link href="/keys" className="text-indigo-700 underline dark:text-indigo-300">
            Keys
          </Link>
          .
        </p>
        {offered}
      </main>
    );

  const [view, report] = await Promise.all([
    teamView(rt.db, user, chosen.id),
    usageReport(rt.db, { teamId: chosen.id }),
  ]);
  const admin = view.role === "owner" || view.role === "admin";
  const base = `/api/portal/teams/${view.team.id}`;
  const visibleKeys = new Set(view.keys.map((k) => k.id));
  const members = groupKeys(report.keys, (k) => k.owner);

  return (
    <main className="mx-auto max-w-5xl px-4 py-10 sm:px-6">
      <h1 className="text-3xl font-bold">Teams</h1>
      {teams.length > 1 && (
        <nav aria-label="Your teams" className="mt-4 flex flex-wrap gap-2">
          {teams.map((t) => (
            <Link
              key={t.id}
              href={`/teams?team=${encodeURIComponent(t.id)}`}
              aria-current={t.id === chosen.id ? "page" : undefined}
              className={`rounded-lg border px-3 py-1.5 text-sm ${t.id === chosen.id ? "border-indigo-700 bg-indigo-700 text-white" : "border-slate-400 text-indigo-800 dark:text-indigo-300"}`}
            >
              {`${t.name} (${t.organisation.name})`}
            </Link>
          ))}
        </nav>
      )}
      {offered}
      <p className="mt-4 text-lg">
        <strong>{view.team.name}</strong>
        {` in ${view.team.organisation.name} · you are ${view.role === "admin" ? "an admin" : `the ${view.role}`}`}
      </p>

      <Section id="members" className="mt-8" title="Members">
        <DataTable margin="mt-3" label="Team members" headers={["Address", "Role", ...(admin ? ["Change"] : [])]}>
          {view.members.map((m) => (
            <tr key={m.email ?? ""} className="border-t border-slate-200 dark:border-slate-800">
              <td className={cell}>{m.you ? `${m.email} (you)` : m.email}</td>
              <td className={cell}>{m.role}</td>
              {admin && (
                <td className={cell}>
                  {!m.you && m.role !== "owner" && (view.role === "owner" || m.role !== "admin") && (
                    <div className="flex flex-wrap gap-3">
                      <TeamForm action={`${base}/role`} done="Role changed." submit="Set role">
                        <input type="hidden" name="email" value={m.email ?? ""} />
                        <RolePicker
                          label={`Role of ${m.email}`}
                          roles={view.role === "owner" ? ROLES : ROLES.filter((r) => r !== "owner")}
                        />
                      </TeamForm>
                      <TeamForm action={`${base}/remove`} done="Removed." submit="Remove" danger>
                        <input type="hidden" name="email" value={m.email ?? ""} />
                      </TeamForm>
                    </div>
                  )}
                </td>
              )}
            </tr>
          ))}
        </DataTable>
        {admin && view.invitations.length > 0 && (
          <p className="mt-3 text-sm">
            {`Invited, not yet joined: ${view.invitations.map((i) => `${i.email} (${i.role}, until ${formatUtc(i.expiresAt)})`).join(", ")}`}
          </p>
        )}
        {admin && view.joinRequests.length > 0 && (
          <div className="mt-4">
            <h3 className="font-semibold">Asking to join</h3>
            <ul className="mt-2 space-y-2">
              {view.joinRequests.map((r) => (
                <li key={r.email ?? ""} className="flex flex-wrap items-center gap-3">
                  <span>{`${r.email} (their address is at your organisation's domain), since ${formatUtc(r.createdAt)}`}</span>
                  <TeamForm action={`${base}/decide`} done="Approved: they are a member." submit={`Approve ${r.email}`}>
                    <input type="hidden" name="email" value={r.email ?? ""} />
                    <input type="hidden" name="approve" value="true" />
                  </TeamForm>
                  <TeamForm action={`${base}/decide`} done="Declined." submit={`Decline ${r.email}`} danger>
                    <input type="hidden" name="email" value={r.email ?? ""} />
                    <input type="hidden" name="approve" value="false" />
                  </TeamForm>
                </li>
              ))}
            </ul>
          </div>
        )}
        {admin && (
          <div className="mt-4">
            <h3 className="font-semibold">Invite someone</h3>
            <p className="text-sm text-slate-700 dark:text-slate-300">
              They get a link by mail that only their address can accept, within 7 days.
            </p>
            <div className="mt-2">
              <TeamForm action={`${base}/invite`} done="Invitation sent." submit="Invite">
                <TeamField name="email" label="Address" type="email" />
                <RolePicker roles={["admin", "member", "viewer"]} />
              </TeamForm>
            </div>
          </div>
        )}
        {view.role !== "owner" && (
          <div className="mt-4">
            <TeamForm
              action={`${base}/leave`}
              done="You left the team."
              submit="Leave this team"
              danger
              afterwards="/teams"
            >
              <p className="text-sm">Leaving revokes your own keys for this team; its shared keys stay.</p>
            </TeamForm>
          </div>
        )}
      </Section>

      <Section id="team-keys" className="mt-8" title="Keys">
        {view.keys.length === 0 ? (
          <p className="mt-3">No keys for this team yet.</p>
        ) : (
          <DataTable margin="mt-3" label="Team keys" headers={["Name", "Prefix", "Held by", "State", "Made"]}>
            {view.keys.map((k) => (
              <tr key={k.id} className="border-t border-slate-200 dark:border-slate-800">
                <td className={cell}>{k.name}</td>
                <td className={cell}>
                  <code>{`${k.prefix}…`}</code>
                </td>
                <td className={cell}>{k.holder ?? "the team"}</td>
                <td className={cell}>{k.status}</td>
                <td className={cell}>{formatUtc(k.createdAt)}</td>
              </tr>
            ))}
          </DataTable>
        )}
        {view.role === "viewer" ? (
          <p className="mt-3 text-sm">As a viewer you see the team; keys are for its members.</p>
        ) : (
          <div className="mt-4">
            <h3 className="font-semibold">New key for this team</h3>
            <TeamForm action={`${base}/keys`} done="Key created: copy it now." submit="Create key">
              <TeamField name="name" label="Key name" />
              {admin && (
                <label className="flex items-center gap-2 text-sm">
                  <input type="checkbox" name="shared" />
                  {"The team's own (stays when members leave)"}
                </label>
              )}
            </TeamForm>
          </div>
        )}
      </Section>

      <Section id="team-usage" className="mt-8" title="Usage, last 30 days">
        <p className="mt-2">
          {`${report.totals.requests.toLocaleString("en")} requests, ${report.totals.tokens.toLocaleString("en")} tokens, ${formatUsd(report.models_total.cost_usd)} estimated, ${report.from} to ${report.to} (UTC).`}
        </p>
        {report.keys.every((k) => k.requests === 0) ? (
          <p className="mt-2">No calls with the team&apos;s keys yet.</p>
        ) : (
          <>
            <DataTable
              margin="mt-3"
              label="Usage by member"
              headers={["Member", "Requests", "OK", "Errors", "Refused (429)"]}
            >
              {members.map(([email, c]) => (
                <tr key={email ?? "team"} className="border-t border-slate-200 dark:border-slate-800">
                  <td className={cell}>{email ?? "the team's own keys"}</td>
                  <td className={cell}>{c.requests.toLocaleString("en")}</td>
                  <td className={cell}>{c.ok.toLocaleString("en")}</td>
                  <td className={cell}>{(c.client + c.server).toLocaleString("en")}</td>
                  <td className={cell}>{c.limited.toLocaleString("en")}</td>
                </tr>
              ))}
            </DataTable>
            <DataTable margin="mt-4" label="Usage by key" headers={["Key", "Requests", "OK", "Errors"]}>
              {report.keys
                .filter((k) => visibleKeys.has(k.id))
                .map((k) => (
                  <tr key={k.id} className="border-t border-slate-200 dark:border-slate-800">
                    <td className={cell}>{k.name}</td>
                    <td className={cell}>{k.requests.toLocaleString("en")}</td>
                    <td className={cell}>{k.ok.toLocaleString("en")}</td>
                    <td className={cell}>{(k.client + k.server).toLocaleString("en")}</td>
                  </tr>
                ))}
            </DataTable>
            {report.models.length > 0 && (
              <DataTable
                margin="mt-4"
                label="Model calls by model"
                headers={["Model", "Calls", "Prompt tokens", "Completion tokens", "Estimated cost"]}
              >
                {report.models.map((m) => (
                  <tr key={`${m.provider}/${m.model}`} className="border-t border-slate-200 dark:border-slate-800">
                    <td className={cell}>{`${m.provider}/${m.model || "(unnamed)"}`}</td>
                    <td className={cell}>{m.requests.toLocaleString("en")}</td>
                    <td className={cell}>{m.prompt_tokens.toLocaleString("en")}</td>
                    <td className={cell}>{m.completion_tokens.toLocaleString("en")}</td>
                    <td className={cell}>{formatUsd(m.cost_usd)}</td>
                  </tr>
                ))}
              </DataTable>
            )}
          </>
        )}
      </Section>
    </main>
  );
}

/** The team the user's verified mail domain lets them ask to join, and where their request stands. */
function JoinOffer({ offer }: { offer: NonNullable<Awaited<ReturnType<typeof joinOffer>>> }) {
  return (
    <Section
      id="join-offer"
      className="mt-6 rounded-xl border border-slate-300 p-4 dark:border-slate-700"
      title="Your organisation"
    >
      <p className="mt-2">{`Your address is at ${offer.domain}, a domain of ${offer.organisation}.`}</p>
      {offer.status === "pending" ? (
        <p className="mt-2">{`You asked to join ${offer.team.name}: its owner or an admin decides.`}</p>
      ) : (
        <div className="mt-2">
          {offer.status === "declined" && (
            <p className="mb-2">{`Your last request to join ${offer.team.name} was declined.`}</p>
          )}
          <TeamForm
            action={`/api/portal/teams/${offer.team.id}/ask`}
            done="Asked."
            submit={`Ask to join ${offer.team.name}`}
          />
        </div>
      )}
    </Section>
  );
}
