import type { Area } from "../http/area.ts";
import type { ErrorShape } from "./error-shape.ts";
import type { RouteDef } from "./route.ts";

/** A route in the table: its declaration, the area that mounts it, and how its path is matched. */
export type TableEntry = {
  readonly def: RouteDef;
  readonly area: Area;
  /** GET, POST, … */
  readonly method: string;
  /** The path as the contract writes it: /v1/data/{source}/search. */
  readonly template: string;
  /** The path as metrics, logs and usage events name it: /v1/data/:source/search. */
  readonly label: string;
  /** How it answers: its surface's error shape, third-party content (the route's own, else its area's). */
  readonly respond: { errors?: ErrorShape; untrusted: boolean };
};

type Pattern = { entry: TableEntry; regex: RegExp; names: string[]; shape: string };

export type Match = { entry: TableEntry; params: Record<string, string> | undefined };

/**
 * Every route of the gateway, found by method and path. A path without parameters is one map lookup;
 * the few with parameters are tried after every exact path (so /v1/trove/books is the books route,
 * not /v1/trove/{category}), the more literal first: of two that both match, the one with a literal
 * segment where the other has a parameter, leftmost first, wins (/v1/data/wikipedia/get/{id} before
 * /v1/data/{source}/get/{id}). The order routes are added in never decides a match. HEAD is served
 * by GET's route. A path is matched as Hono matched it before: percent-decoded (decodeURI, so an encoded `/` stays one
 * segment) and a trailing slash ignored; parameters are decoded whole.
 */
export class RouteTable {
  readonly entries: TableEntry[] = [];
  readonly #exact = new Map<string, TableEntry>();
  readonly #patterns = new Map<string, Pattern[]>();
  readonly #methods = new Map<string, Set<string>>();

  add(area: Area, def: RouteDef): void {
    const method = def.contract.method.toUpperCase();
    const template = def.contract.path;
    const errors = def.access.errors ?? area.respond?.errors;
    const entry: TableEntry = {
      def,
      area,
      method,
      template,
      label: template.replace(/\{(\w+)\}/g, ":$1"),
      respond: { untrusted: def.access.untrusted || (area.respond?.untrusted ?? false), ...(errors ? { errors } : {}) },
    };
    this.entries.push(entry);
    const names: string[] = [];
    const source = template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{(\w+)\}/g, (_, name: string) => {
      names.push(name);
      return "([^/]+)";
    });
    if (names.length === 0) {
      const id = `${method} ${normalised(template)}`;
      if (this.#exact.has(id)) throw new Error(`${id}: declared twice`);
      this.#exact.set(id, entry);
      const methods = this.#methods.get(normalised(template)) ?? new Set<string>();
      methods.add(method);
      this.#methods.set(normalised(template), methods);
      return;
    }
    const regex = new RegExp(`^${normalised(source)}$`);
    const shape = shapeOf(template);
    const list = this.#patterns.get(method) ?? [];
    if (list.some((p) => p.shape === shape)) throw new Error(`${method} ${template}: declared twice`);
    list.push({ entry, regex, names, shape });
    list.sort(moreLiteralFirst);
    this.#patterns.set(method, list);
  }

  /** The route that answers `method` `rawPath`, with its parameters; undefined when none does. */
  match(method: string, rawPath: string): Match | undefined {
    const path = pathOf(rawPath);
    const asked = method === "HEAD" ? "GET" : method;
    const exact = this.#exact.get(`${asked} ${path}`);
    if (exact) return { entry: exact, params: undefined };
    const patterns = this.#patterns.get(asked);
    if (!patterns) return undefined;
    for (const { entry, regex, names } of patterns) {
      const found = regex.exec(path);
      if (!found) continue;
      const params: Record<string, string> = {};
      for (let i = 0; i < names.length; i++) params[names[i]!] = decodedParam(found[i + 1]!);
      return { entry, params };
    }
    return undefined;
  }

  /** The methods `rawPath` is served with (HEAD with every GET), for a 405's Allow; empty for an unknown path. */
  allowed(rawPath: string): string[] {
    const path = pathOf(rawPath);
    const methods = new Set(this.#methods.get(path));
    for (const [method, patterns] of this.#patterns)
      if (patterns.some(({ regex }) => regex.test(path))) methods.add(method);
    if (methods.has("GET")) methods.add("HEAD");
    return [...methods];
  }
}

/** A template with its parameters' names blanked: two templates of one shape match the same paths. */
const shapeOf = (template: string): string => normalised(template).replace(/\{\w+\}/g, "{}");

/** Orders patterns so that, of two matching one path, the one literal where the other is a parameter comes first. */
function moreLiteralFirst(a: Pattern, b: Pattern): number {
  const x = a.shape.split("/");
  const y = b.shape.split("/");
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const paramX = x[i] === "{}";
    if (paramX !== (y[i] === "{}")) return paramX ? 1 : -1;
  }
  // Of different lengths they never match one path; ordered anyway so that the order is total.
  return x.length - y.length;
}

const normalised = (path: string): string => (path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path);

/** A request's path as routes are matched against it. */
export function pathOf(rawPath: string): string {
  let path = rawPath;
  if (path.includes("%")) {
    try {
      path = decodeURI(path);
    } catch {
      // Malformed percent-encoding: matched as sent (it finds no route, as before).
    }
  }
  return normalised(path);
}

function decodedParam(value: string): string {
  if (!value.includes("%")) return value;
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
