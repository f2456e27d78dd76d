import { getServerSession, type Session } from "next-auth";
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { SESSION_COOKIES } from "../../gateway/keys/session-bridge.ts";
import { getPortal } from "./auth.ts";
import { signInPath } from "./reason.ts";

/** The signed-in session, or null. */
export async function currentSession(): Promise<Session | null> {
  // Reading the request's cookies first makes the page dynamic before anything opens the database
  // (so `next build` never does), and a visitor without a session cookie costs no query.
  const jar = await cookies();
  if (!SESSION_COOKIES.some((name) => jar.has(name))) return null;
  const { authOptions } = await getPortal();
  return getServerSession(authOptions);
}

/**
 * For pages that need a user: the session, or a redirect to the sign-in page, which says why `path`
 * needs one and comes back to it.
 */
export async function requireSession(path: string): Promise<Session> {
  const session = await currentSession();
  if (!session) redirect(signInPath(path));
  return session;
}

/** For operator pages: non-operators get a 404-free refusal page from the caller (null), signed-out users sign in. */
export async function requireOperator(path: string): Promise<Session | null> {
  const session = await requireSession(path);
  return session.user.operator ? session : null;
}

/** For operator routes: the operator's session, or the route's answer to anyone else (401 or 403). */
export async function operatorOrRefusal(): Promise<{ session: Session } | { refusal: Response }> {
  const session = await currentSession();
  if (!session) return { refusal: Response.json({ error: "sign in first" }, { status: 401 }) };
  if (!session.user.operator) return { refusal: Response.json({ error: "operators only" }, { status: 403 }) };
  return { session };
}
