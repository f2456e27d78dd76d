import NextAuth from "next-auth";
import { getPortal } from "@/lib/portal/auth.ts";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type RouteContext = { params: Promise<{ nextauth: string[] }> };

// The options need the gateway's database, which opens asynchronously, so the handler is built per call.
async function handle(request: Request, context: RouteContext): Promise<Response> {
  const { authOptions } = await getPortal();
  return NextAuth(request as never, context as never, authOptions) as Promise<Response>;
}

export { handle as GET, handle as POST };
