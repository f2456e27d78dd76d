import { NextResponse, type NextRequest } from "next/server";
import { prefersHtml } from "@/lib/gateway/front-door.ts";

/** Under `next dev`, `/` is the portal for browsers and the JSON service index for programs (as in server.ts). */
export function proxy(request: NextRequest) {
  if (prefersHtml(request.headers.get("accept") ?? undefined)) return NextResponse.next();
  return NextResponse.rewrite(new URL("/v1", request.url));
}

export const config = { matcher: "/" };
