import { AREAS } from "./app.ts";
import type { Area } from "./gateway/http/area.ts";
import { prefersHtml } from "./prefers-html.ts";

/**
 * A test for the paths the areas declare: "/v1/llm/*" matches the path and everything under it,
 * any other entry that path exactly. "/" is never in it: the front door decides that one by Accept.
 */
export function areaPathMatcher(areas: readonly Area[]): (pathname: string) => boolean {
  const exact = new Set<string>();
  const prefixes: string[] = [];
  for (const area of areas) {
    for (const path of area.paths) {
      if (path.endsWith("/*")) {
        exact.add(path.slice(0, -2));
        prefixes.push(path.slice(0, -1));
      } else if (path !== "/") exact.add(path);
    }
  }
  return (pathname) => exact.has(pathname) || prefixes.some((prefix) => pathname.startsWith(prefix));
}

const isAreaPath = areaPathMatcher(AREAS);

/**
 * Whether server.ts hands a request to the API rather than the portal: every /v1 path (an unknown
 * one gets the API's JSON 404), the paths the areas declare (status, the clinical content service),
 * and `/` unless the client prefers HTML (a browser gets the portal home, a program the JSON index).
 */
export function isGatewayRequest(url: string, accept: string | undefined): boolean {
  const q = url.indexOf("?");
  const pathname = q === -1 ? url : url.slice(0, q);
  if (pathname.startsWith("/v1/") || isAreaPath(pathname)) return true;
  if (pathname === "/") return !prefersHtml(accept);
  return false;
}
