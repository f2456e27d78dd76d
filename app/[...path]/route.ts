import { nextRouteHandlers } from "@/lib/next-route.ts";

// The API under `next dev` and serverless hosts: the paths the areas declare (lib/app.ts AREAS), and
// Next's 404 for anything no page claims. `npm start` (server.ts) sends API paths past Next entirely.
export const runtime = "nodejs";
export const dynamic = "force-dynamic";
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = nextRouteHandlers;
