// Types of scripts/portal-build.mjs (plain JavaScript, run by node as it is), for the TypeScript that imports it.
import type { BackgroundBuild } from "../lib/portal/build-state.ts";

/** Why the portal needs building, or null when its build is current. */
export declare function portalStaleReason(): string | null;

/** lib/portal/build-state.ts's PENDING_BUILD_KEY. */
export declare const PENDING_BUILD_KEY: symbol;

/** Starts `next build` (or `command`, run by node) in the background. */
export declare function startPortalBuild(
  reason: string,
  options?: { say?: (line: string) => void; command?: string[] },
): BackgroundBuild;
