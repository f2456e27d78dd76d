import { nextRouteHandlers } from "@/lib/gateway/next-route.ts";

// The clinical content service: `next dev` and serverless hosts reach the gateway here; `npm start`
// (server.ts) sends these paths straight to the gateway (lib/gateway/front-door.ts).
export const runtime = "nodejs";
export const dynamic = "force-dynamic";
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = nextRouteHandlers;
