import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { parseApprovalDomains, type KeyApprovalPolicy } from "../gateway/keys/approval.ts";
import { makePrivateDir } from "../private-dir.ts";

const envSchema = z.object({
  DATA_DIR: z.string().default("./.data"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  PUBLIC_BASE_URL: z.string().url().optional(),
  NEXTAUTH_URL: z.string().url().optional(),
  NEXTAUTH_SECRET: z.string().min(16).optional(),
  SMTP_URL: z.string().url().optional(),
  SMTP_HOST: z.string().optional(),
  SMTP_PORT: z.coerce.number().int().positive().optional(),
  SMTP_USER: z.string().optional(),
  SMTP_PASSWORD: z.string().optional(),
  EMAIL_FROM: z.string().default("API Gateway <no-reply@localhost>"),
  GITHUB_ID: z.string().optional(),
  GITHUB_SECRET: z.string().optional(),
  /** A company's OpenID Connect provider: its issuer URL (discovery at /.well-known/openid-configuration). */
  OIDC_ISSUER: z.string().url().optional(),
  OIDC_CLIENT_ID: z.string().optional(),
  OIDC_CLIENT_SECRET: z.string().optional(),
  /** The sign-in button's name for it. */
  OIDC_NAME: z.string().max(60).default("single sign-on"),
  ADMIN_EMAILS: z.string().default(""),
  KEY_APPROVAL: z.enum(["manual", "auto", "domains"]).optional(),
  KEY_APPROVAL_DOMAINS: z.string().optional(),
  /** Deprecated: KEY_APPROVAL=auto (true) or manual (false). */
  AUTO_APPROVE_KEYS: z.enum(["true", "false"]).optional(),
});

/** How mail leaves: a nodemailer transport description, or null when none is configured. */
export type SmtpSettings =
  string | { host: string; port: number; secure: boolean; auth?: { user: string; pass: string } };

export type PortalConfig = {
  /** The portal's public origin, used for sign-in links (never taken from a request's Host header). */
  url: string;
  secret: string;
  smtp: SmtpSettings | null;
  emailFrom: string;
  github: { clientId: string; clientSecret: string } | null;
  /** OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET, when all three are set. */
  oidc: OidcSettings | null;
  adminEmails: Set<string>;
  keyApproval: KeyApprovalPolicy;
  /** Settings still honoured but due to go, each with what to use instead: for the startup log. */
  deprecations: string[];
};

export type OidcSettings = { issuer: string; clientId: string; clientSecret: string; name: string };

export const SECRET_FILE = "nextauth-secret";

/** Reads the portal's settings; NEXTAUTH_URL and NEXTAUTH_SECRET are filled in when unset (see resolve*). */
export function loadPortalConfig(env: Record<string, string | undefined> = process.env): PortalConfig {
  const clean = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ""));
  const parsed = envSchema.safeParse(clean);
  if (!parsed.success) {
    throw new Error(
      `invalid configuration: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`,
    );
  }
  const e = parsed.data;
  const approval = keyApproval(e);
  const smtp = smtpSettings(e);
  return {
    url: portalUrl(e),
    secret: e.NEXTAUTH_SECRET ?? persistedSecret(path.resolve(e.DATA_DIR)),
    smtp,
    emailFrom: e.EMAIL_FROM,
    github: e.GITHUB_ID && e.GITHUB_SECRET ? { clientId: e.GITHUB_ID, clientSecret: e.GITHUB_SECRET } : null,
    oidc:
      e.OIDC_ISSUER && e.OIDC_CLIENT_ID && e.OIDC_CLIENT_SECRET
        ? {
            issuer: e.OIDC_ISSUER.replace(/\/+$/, ""),
            clientId: e.OIDC_CLIENT_ID,
            clientSecret: e.OIDC_CLIENT_SECRET,
            name: e.OIDC_NAME,
          }
        : null,
    adminEmails: operatorEmails(e.ADMIN_EMAILS, smtp),
    keyApproval: approval.policy,
    deprecations: approval.deprecations,
  };
}

/**
 * The operator of the embedded default, which names none (ADMIN_EMAILS) and sends no mail: only the
 * first-run link (sign-in/first-run.ts) signs this address in, since no mail can reach it and operators'
 * sign-in links are kept out of the production log.
 */
export const LOCAL_OPERATOR_EMAIL = "operator@localhost";

/** ADMIN_EMAILS, lowercased; with neither operators nor SMTP configured, the local operator. */
function operatorEmails(list: string, smtp: SmtpSettings | null): Set<string> {
  const listed = list
    .split(",")
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  return new Set(listed.length || smtp !== null ? listed : [LOCAL_OPERATOR_EMAIL]);
}

/**
 * KEY_APPROVAL and KEY_APPROVAL_DOMAINS, or the older AUTO_APPROVE_KEYS when KEY_APPROVAL is unset.
 * Settings that contradict each other, or domains that would never be read, are refused rather than
 * one of them silently winning: either way someone would get keys the operator did not mean to give.
 */
function keyApproval(e: Pick<z.infer<typeof envSchema>, ApprovalSetting>): {
  policy: KeyApprovalPolicy;
  deprecations: string[];
} {
  const legacy = e.AUTO_APPROVE_KEYS === undefined ? undefined : e.AUTO_APPROVE_KEYS === "true" ? "auto" : "manual";
  const mode = e.KEY_APPROVAL ?? legacy ?? "manual";
  if (legacy !== undefined && e.KEY_APPROVAL !== undefined && legacy !== e.KEY_APPROVAL)
    throw new Error(
      `invalid configuration: AUTO_APPROVE_KEYS=${e.AUTO_APPROVE_KEYS} contradicts KEY_APPROVAL=${e.KEY_APPROVAL}; remove AUTO_APPROVE_KEYS (deprecated)`,
    );
  const deprecations =
    legacy === undefined ? [] : [`AUTO_APPROVE_KEYS is deprecated: set KEY_APPROVAL=${legacy} instead`];
  if (mode !== "domains") {
    if (e.KEY_APPROVAL_DOMAINS !== undefined)
      throw new Error(
        `invalid configuration: KEY_APPROVAL_DOMAINS is read only with KEY_APPROVAL=domains (KEY_APPROVAL is ${mode})`,
      );
    return { policy: { mode }, deprecations };
  }
  let domains: string[];
  try {
    domains = parseApprovalDomains(e.KEY_APPROVAL_DOMAINS ?? "");
  } catch (err) {
    throw new Error(`invalid configuration: ${(err as Error).message}`, { cause: err });
  }
  if (!domains.length)
    throw new Error(
      "invalid configuration: KEY_APPROVAL=domains needs KEY_APPROVAL_DOMAINS, e.g. KEY_APPROVAL_DOMAINS=example.com,example.org",
    );
  return { policy: { mode, domains }, deprecations };
}

type ApprovalSetting = "KEY_APPROVAL" | "KEY_APPROVAL_DOMAINS" | "AUTO_APPROVE_KEYS";

/**
 * The approval policy read alone (the gateway opens model consoles by it, lib/config.ts): the same
 * variables, checks and errors as loadPortalConfig.
 */
export function loadKeyApproval(env: Record<string, string | undefined> = process.env): KeyApprovalPolicy {
  const clean = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ""));
  const parsed = envSchema
    .pick({ KEY_APPROVAL: true, KEY_APPROVAL_DOMAINS: true, AUTO_APPROVE_KEYS: true })
    .safeParse(clean);
  if (!parsed.success)
    throw new Error(
      `invalid configuration: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`,
    );
  return keyApproval(parsed.data).policy;
}

function portalUrl(e: Pick<z.infer<typeof envSchema>, "NEXTAUTH_URL" | "PUBLIC_BASE_URL" | "PORT">): string {
  return (e.NEXTAUTH_URL ?? e.PUBLIC_BASE_URL ?? `http://localhost:${e.PORT || 3000}`).replace(/\/+$/, "");
}

/** The portal's public origin, read alone (the keys CLI's decision mail links to it): as loadPortalConfig's `url`. */
export function loadPortalUrl(env: Record<string, string | undefined> = process.env): string {
  const clean = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ""));
  return portalUrl(envSchema.pick({ NEXTAUTH_URL: true, PUBLIC_BASE_URL: true, PORT: true }).parse(clean));
}

/**
 * How mail leaves, read alone (the gateway's budget alerts need it without the rest of the portal's
 * settings): the same variables and defaults as loadPortalConfig.
 */
export function loadMailSettings(
  env: Record<string, string | undefined> = process.env,
): Pick<PortalConfig, "smtp" | "emailFrom"> {
  const clean = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ""));
  const e = envSchema
    .pick({ SMTP_URL: true, SMTP_HOST: true, SMTP_PORT: true, SMTP_USER: true, SMTP_PASSWORD: true, EMAIL_FROM: true })
    .parse(clean);
  return { smtp: smtpSettings(e), emailFrom: e.EMAIL_FROM };
}

/**
 * The operators' addresses read alone (the gateway's session bridge opens their consoles' model areas),
 * as loadPortalConfig reads them: ADMIN_EMAILS, or the local operator when neither it nor SMTP is set.
 */
export function loadOperatorEmails(env: Record<string, string | undefined> = process.env): Set<string> {
  const clean = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ""));
  const e = envSchema.pick({ ADMIN_EMAILS: true }).parse(clean);
  return operatorEmails(e.ADMIN_EMAILS, loadMailSettings(env).smtp);
}

function smtpSettings(
  e: Pick<z.infer<typeof envSchema>, "SMTP_URL" | "SMTP_HOST" | "SMTP_PORT" | "SMTP_USER" | "SMTP_PASSWORD">,
): SmtpSettings | null {
  if (e.SMTP_URL) return e.SMTP_URL;
  if (!e.SMTP_HOST) return null;
  const port = e.SMTP_PORT ?? 587;
  return {
    host: e.SMTP_HOST,
    port,
    // Port 465 speaks TLS from the first byte; the others upgrade with STARTTLS when offered.
    secure: port === 465,
    auth: e.SMTP_USER ? { user: e.SMTP_USER, pass: e.SMTP_PASSWORD ?? "" } : undefined,
  };
}

/**
 * A secret generated once and kept in DATA_DIR (mode 0600), so sign-in works with no setup and
 * sessions survive restarts. Several instances need NEXTAUTH_SECRET set to one shared value.
 */
function persistedSecret(dataDir: string): string {
  const file = path.join(dataDir, SECRET_FILE);
  try {
    return fs.readFileSync(file, "utf8").trim();
  } catch {
    makePrivateDir(dataDir);
    const secret = randomBytes(32).toString("base64url");
    try {
      // "wx": if another process wrote it first, theirs wins and we read it back.
      fs.writeFileSync(file, secret, { mode: 0o600, flag: "wx" });
      return secret;
    } catch {
      return fs.readFileSync(file, "utf8").trim();
    }
  }
}

export function isOperatorEmail(config: PortalConfig, email: string | null | undefined): boolean {
  return !!email && config.adminEmails.has(email.toLowerCase());
}
