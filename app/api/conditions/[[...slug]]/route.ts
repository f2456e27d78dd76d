import { nextRouteHandlers } from "@/lib/next-route.ts";

// The clinical content service: `next dev` and serverless hosts reach the gateway here; `npm start`
// (server.ts) sends these paths straight to the gateway (lib/front-door.ts).
export const runtime = "nodejs";
export const dynamic = "force-dynamic";
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = nextRouteHandlers;
