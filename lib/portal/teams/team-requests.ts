import { ZodError } from "zod";
import { getGateway } from "../../instance.ts";
import type { Runtime } from "../../gateway/runtime/runtime.ts";
import { KeyRuleError } from "../../gateway/keys/key-rules.ts";
import { TeamChangeError } from "../../gateway/teams/team-changes.ts";
import { currentSession } from "../sign-in/session.ts";
import { TeamActionError, type PortalUser } from "./team-portal.ts";

const MAX_BODY_BYTES = 16_384;

/** JSON or a form's fields (a checkbox's "on" as true). */
async function bodyOf(request: Request): Promise<Record<string, unknown>> {
  const text = await request.text();
  if (text.length > MAX_BODY_BYTES) throw new TeamActionError("the request is too large", 409);
  if (!text) return {};
  if ((request.headers.get("content-type") ?? "").includes("application/json")) return JSON.parse(text) as never;
  const fields: Record<string, unknown> = {};
  for (const [k, v] of new URLSearchParams(text)) fields[k] = v === "on" ? true : v;
  return fields;
}

/** The request came from the portal's own origin (the one it was sent to, or its public NEXTAUTH_URL). */
function fromPortal(request: Request): boolean {
  const origin = request.headers.get("origin");
  if (!origin) return false;
  const own = [new URL(request.url).origin];
  if (process.env.NEXTAUTH_URL) own.push(new URL(process.env.NEXTAUTH_URL).origin);
  return own.includes(origin);
}

const json = (body: unknown, status = 200) => Response.json(body, { status, headers: { "Cache-Control": "no-store" } });

/**
 * One portal team request: the signed-in user (401 without), from the portal's own origin (403 from
 * another: the session cookie must not act for a page elsewhere), its body, and every refusal as the
 * JSON `{error}` with its status — never a stack trace.
 */
export async function teamRequest(
  request: Request,
  work: (user: PortalUser, rt: Runtime, body: Record<string, unknown>) => Promise<unknown>,
): Promise<Response> {
  const session = await currentSession();
  if (!session) return json({ error: "sign in to manage your teams" }, 401);
  if (request.method !== "GET" && !fromPortal(request))
    return json({ error: "team changes are made from the portal's own pages" }, 403);
  try {
    const { rt } = await getGateway();
    const body = request.method === "GET" ? {} : await bodyOf(request);
    return json(await work({ id: session.user.id, email: session.user.email ?? null }, rt, body));
  } catch (err) {
    if (err instanceof TeamActionError || err instanceof TeamChangeError)
      return json({ error: err.message }, err.status);
    if (err instanceof KeyRuleError) return json({ error: err.message }, 409);
    if (err instanceof ZodError) {
      const issue = err.issues[0];
      return json({ error: `${issue?.path.join(".") || "input"}: ${issue?.message ?? "invalid"}` }, 400);
    }
    if (err instanceof SyntaxError) return json({ error: "the body is not valid JSON" }, 400);
    throw err;
  }
}
