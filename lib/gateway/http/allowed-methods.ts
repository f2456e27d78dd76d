import type { Hono } from "hono";
import { TrieRouter } from "hono/router/trie-router";

/**
 * The methods each path of the app is served with, for a 405's Allow header: as hono/method-not-allowed
 * reads them (HEAD with every GET; middleware, `ALL`, left out), built on first use, when every route
 * is registered.
 */
export function methodsByPath(app: Pick<Hono, "routes">): (path: string) => string[] {
  let router: TrieRouter<string[]> | undefined;
  return (path) => {
    if (!router) {
      const byPath = new Map<string, Set<string>>();
      for (const route of app.routes) {
        if (route.method === "ALL" || route.method === "HEAD") continue;
        const methods = byPath.get(route.path) ?? new Set<string>();
        methods.add(route.method);
        if (route.method === "GET") methods.add("HEAD");
        byPath.set(route.path, methods);
      }
      router = new TrieRouter<string[]>();
      for (const [route, methods] of byPath) router.add("ALL", route, [...methods]);
    }
    const allowed = new Set<string>();
    for (const [methods] of router.match("ALL", path)[0]) for (const method of methods) allowed.add(method);
    return [...allowed];
  };
}
