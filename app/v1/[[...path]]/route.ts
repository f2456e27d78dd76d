import { nextRouteHandlers } from "@/lib/next-route.ts";

// `next dev` and serverless hosts reach the gateway here; `npm start` (server.ts) bypasses Next for these paths.
export const runtime = "nodejs";
export const dynamic = "force-dynamic";
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = nextRouteHandlers;
