import type { Metadata } from "next";
import Link from "next/link";
import { TeamForm } from "@/components/portal/team-forms";
import { getGateway } from "@/lib/instance.ts";
import { requireSession } from "@/lib/portal/sign-in/session.ts";
import { invitationOf, TeamActionError } from "@/lib/portal/teams/team-portal.ts";

export const metadata: Metadata = { title: "Join a team · Unified API Gateway" };
export const dynamic = "force-dynamic";

type Props = { params: Promise<{ token: string }> };

/** An invitation's link: who it is for and which team, and a button for that address to accept it. */
export default async function JoinPage({ params }: Props) {
  const { token } = await params;
  const session = await requireSession(`/teams/join/${encodeURIComponent(token)}`);
  const { rt } = await getGateway();
  let invitation;
  try {
    invitation = await invitationOf(rt.db, token.slice(0, 200));
  } catch (err) {
    if (!(err instanceof TeamActionError)) throw err;
    return (
      <main className="mx-auto max-w-3xl px-4 py-10 sm:px-6">
        <h1 className="text-3xl font-bold">Join a team</h1>
        <p role="alert" className="mt-4">
          {err.message}
        </p>
      </main>
    );
  }
  const yours = session.user.email?.toLowerCase() === invitation.email;
  return (
    <main className="mx-auto max-w-3xl px-4 py-10 sm:px-6">
      <h1 className="text-3xl font-bold">Join a team</h1>
      <p className="mt-4">{`You are invited to ${invitation.team.name} as ${invitation.role === "admin" ? "an admin" : `a ${invitation.role}`}.`}</p>
      {yours ? (
        <div className="mt-4">
          <TeamForm
            action="/api/portal/teams/join"
            done="You joined the team."
            submit={`Join ${invitation.team.name}`}
            afterwards={`/teams?team=${encodeURIComponent(invitation.team.id)}`}
          >
            <input type="hidden" name="token" value={token} />
          </TeamForm>
        </div>
      ) : (
        <p className="mt-4">
          {`This invitation is for ${invitation.email}, and you are signed in as ${session.user.email ?? "an account without an address"}. `}
          <Link href="/sign-out" className="text-indigo-700 underline dark:text-indigo-300">
            Sign out
          </Link>{" "}
          and sign in with that address to accept it.
        </p>
      )}
    </main>
  );
}
