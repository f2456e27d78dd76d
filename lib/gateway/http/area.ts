import type { Runtime } from "../runtime/runtime.ts";
import type { ErrorShape } from "../pipeline/error-shape.ts";
import type { RouteDef } from "../pipeline/route.ts";

/**
 * One area of the API, as `lib/api/<name>/index.ts` exports it. The composition root mounts a list
 * of these; the area's scope reaches the pipeline's auth step for each of its routes and every usage event.
 */
export type Area = {
  /** Its folder under lib/api. */
  name: string;
  /** The key scope its keyed routes require, and the area usage is recorded under. */
  scope: string;
  /** The URL paths it answers: "/v1/llm/*" is a prefix (and the path itself), anything else exact. */
  paths: readonly string[];
  /** Its routes, each a contract and its handler (lib/gateway/pipeline/route.ts). */
  routes: readonly RouteDef[];
  /** How it answers on its paths: its surface's error shape, third-party content in every answer. */
  respond?: { errors?: ErrorShape; untrusted?: boolean };
  /**
   * Runs once per runtime, in web and worker processes alike: registers the work of the area's
   * durable task kinds, so whichever process takes a task from the queue can run it.
   */
  setup?: (rt: Runtime) => void;
};

export const defineArea = (area: Area): Area => area;
