import { parse as parseCookies } from "cookie";
import { LRUCache } from "lru-cache";
import type { Database } from "../../db/client.ts";
import type { BudgetTracker } from "../../usage/budgets.ts";
import { syncConsoleBudget } from "../../usage/console-budget.ts";
import { consoleKeyFor } from "./console-key.ts";
import type { KeyApprovalPolicy } from "./approval.ts";
import { consoleModelsOpen, withModelsWithheld } from "./console-access.ts";
import type { KeyRecord } from "./record.ts";
import type { KeyStore } from "./store.ts";

/** next-auth's database-session cookie: the `__Secure-` name when the portal is served over HTTPS. */
export const SESSION_COOKIES = ["__Secure-next-auth.session-token", "next-auth.session-token"] as const;

export type SessionBridgeOptions = {
  /** How long a session's owner and console key are trusted from memory (sign-out elsewhere takes this long). */
  ttlMs: number;
  /** Origins that count as ours besides the request's own (PUBLIC_BASE_URL / NEXTAUTH_URL behind a proxy). */
  trustedOrigins: string[];
  /** KEY_APPROVAL: whose consoles may call the model areas before an approved key (console-access.ts). */
  approval: KeyApprovalPolicy;
  /** The operators' addresses (ADMIN_EMAILS, or the embedded default's local operator): their consoles are open. */
  operators?: ReadonlySet<string>;
  /** Where the console key gets its user's budget (console-budget.ts), so the console is no way around it. */
  budgets?: Pick<BudgetTracker, "apply">;
};

/** What a session is trusted as for `ttlMs`: an approval or a budget change reaches it within that time. */
type CachedSession = { userId: string; expires: number; keyHash: string; modelsOpen: boolean };
const NO_SESSION = Symbol("no session");

/**
 * Lets the portal's consoles call /v1 with the signed-in session instead of a key (the browser never
 * holds a key). A same-origin request carrying next-auth's session cookie is attributed to the user's
 * own console key, created on first use, limited (with the console allowance, smaller than a key's)
 * and metered like any client. Session → console key is read from the database once and kept for `ttlMs`; the key's
 * record itself comes from the KeyStore, so revocations and limit changes reach it as for any key. Until the
 * user is approved, the model areas are withheld from it; it is held to the strictest of the user's budgets.
 */
/** What a session is read from: the request's headers (Cookie, Sec-Fetch-Site, Origin) and its URL. */
export type SessionRequest = { header(name: string): string | undefined; readonly url: string };

/** The first session cookie the request carries, if any. */
function sessionCookie(c: SessionRequest): string | undefined {
  const header = c.header("cookie");
  if (!header) return undefined;
  const cookies = parseCookies(header);
  return SESSION_COOKIES.map((name) => cookies[name]).find(Boolean);
}

export class SessionBridge {
  private readonly cache: LRUCache<string, CachedSession | typeof NO_SESSION>;
  private readonly loading = new Map<string, Promise<CachedSession | null>>();

  constructor(
    private readonly db: Database,
    private readonly keys: KeyStore,
    private readonly options: SessionBridgeOptions,
  ) {
    this.cache = new LRUCache({ max: 50_000, ttl: options.ttlMs });
  }

  /** The session cookie's value when the request may use it: same origin only, never cross-site. */
  sessionToken(c: SessionRequest): string | undefined {
    const token = sessionCookie(c);
    if (!token || !this.isSameOrigin(c)) return undefined;
    return token;
  }

  /** True when a session cookie came with the request but the request is not same-origin. */
  crossSiteCookie(c: SessionRequest): boolean {
    return sessionCookie(c) !== undefined && !this.isSameOrigin(c);
  }

  /** The console key for the request's session, or null when it carries no usable session. */
  async fromRequest(c: SessionRequest, now = Date.now()): Promise<KeyRecord | null> {
    const token = this.sessionToken(c);
    return token ? this.resolve(token, now) : null;
  }

  async resolve(token: string, now = Date.now()): Promise<KeyRecord | null> {
    let session = this.cache.get(token);
    if (session === NO_SESSION) return null;
    if (!session) {
      let pending = this.loading.get(token);
      if (!pending) {
        pending = this.load(token).finally(() => this.loading.delete(token));
        this.loading.set(token, pending);
      }
      session = (await pending) ?? undefined;
      if (!session) return null;
    }
    if (session.expires <= now) return null;
    const key = await this.keys.resolveHash(session.keyHash);
    return key && !session.modelsOpen ? withModelsWithheld(key) : key;
  }

  /** Drops a session at once (signed out here). */
  forget(token: string): void {
    this.cache.delete(token);
  }

  private async load(token: string): Promise<CachedSession | null> {
    const row = await this.db.prisma.session.findUnique({
      where: { sessionToken: token },
      select: { userId: true, expires: true },
    });
    if (!row || row.expires.getTime() <= Date.now()) {
      this.cache.set(token, NO_SESSION);
      return null;
    }
    const key = await consoleKeyFor(this.db, row.userId);
    this.keys.remember(key);
    const [modelsOpen] = await Promise.all([
      consoleModelsOpen(this.db, row.userId, this.options.approval, this.options.operators),
      this.options.budgets && syncConsoleBudget(this.db, this.options.budgets, row.userId, key.id),
    ]);
    const session = { userId: row.userId, expires: row.expires.getTime(), keyHash: key.hash, modelsOpen };
    this.cache.set(token, session);
    return session;
  }

  /**
   * CSRF guard. Browsers send Sec-Fetch-Site on every request to a secure (HTTPS or loopback) origin;
   * where they do not, a same-origin fetch that sends Origin is accepted when it names this host.
   * A request with neither (a plain-HTTP GET from a non-loopback host) gets no session.
   */
  private isSameOrigin(c: SessionRequest): boolean {
    const site = c.header("sec-fetch-site");
    if (site !== undefined) return site === "same-origin";
    const origin = c.header("origin");
    if (!origin) return false;
    return origin === new URL(c.url).origin || this.options.trustedOrigins.includes(origin);
  }
}
