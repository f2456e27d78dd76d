"use client";

import Link from "next/link";
import { useEffect, useState } from "react";

/**
 * The portal's own sign-in, check-your-email and sign-out forms. They post to next-auth's routes as
 * its own pages do, with its CSRF token, which lives in a cookie that only the browser can receive:
 * so the token is fetched here, and each button waits for it.
 */

const CSRF_URL = "/api/auth/csrf";
/** Where the sign-in form leaves the address for the check-your-email page (next-auth's redirect drops it). */
const PENDING = "portal.sign-in";

async function fetchCsrfToken(): Promise<string> {
  const res = await fetch(CSRF_URL, { credentials: "same-origin", cache: "no-store" });
  if (!res.ok) throw new Error(`csrf ${res.status}`);
  return ((await res.json()) as { csrfToken: string }).csrfToken;
}

function useCsrfToken(): { token: string | null; failed: boolean } {
  const [state, setState] = useState<{ token: string | null; failed: boolean }>({ token: null, failed: false });
  useEffect(() => {
    let live = true;
    fetchCsrfToken().then(
      (token) => live && setState({ token, failed: false }),
      () => live && setState({ token: null, failed: true }),
    );
    return () => {
      live = false;
    };
  }, []);
  return state;
}

const input =
  "mt-1 block w-full rounded-lg border border-slate-400 bg-white px-3 py-2 text-slate-900 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100";
const primary =
  "w-full rounded-lg bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-600 disabled:opacity-60 sm:w-auto";
const secondary =
  "w-full rounded-lg border border-slate-400 px-4 py-2 font-medium hover:bg-slate-100 disabled:opacity-60 sm:w-auto dark:border-slate-600 dark:hover:bg-slate-800";

function Unavailable() {
  return (
    <p role="alert" className="mt-3 text-sm font-medium text-red-700 dark:text-red-400">
      Sign-in cannot start: the server did not answer. Reload the page to try again.
    </p>
  );
}

export function SignInForms({
  callbackUrl,
  github,
  oidc,
}: {
  callbackUrl: string;
  github: boolean;
  /** The company sign-in's name (OIDC_NAME), when one is configured. */
  oidc: string | null;
}) {
  const { token, failed } = useCsrfToken();
  return (
    <>
      <form
        method="post"
        action="/api/auth/signin/email"
        className="mt-6 space-y-3"
        onSubmit={(e) => {
          const email = new FormData(e.currentTarget).get("email");
          sessionStorage.setItem(PENDING, JSON.stringify({ email, callbackUrl }));
        }}
      >
        <input type="hidden" name="csrfToken" value={token ?? ""} />
        <input type="hidden" name="callbackUrl" value={callbackUrl} />
        <div>
          <label htmlFor="sign-in-email" className="font-medium">
            Email address
          </label>
          <input
            id="sign-in-email"
            name="email"
            type="email"
            required
            maxLength={320}
            autoComplete="email"
            placeholder="you@example.com"
            className={input}
          />
        </div>
        <button type="submit" disabled={!token} className={primary}>
          Email me a sign-in link
        </button>
        <p className="text-sm text-slate-700 dark:text-slate-300">
          No password: the link signs you in, and works once, for 15 minutes. A first sign-in makes your account.
        </p>
      </form>
      {github && <ProviderForm provider="github" name="GitHub" token={token} callbackUrl={callbackUrl} />}
      {oidc && <ProviderForm provider="oidc" name={oidc} token={token} callbackUrl={callbackUrl} />}
      {failed && <Unavailable />}
    </>
  );
}

/** A "Sign in with …" button for an OAuth or OpenID Connect provider, posting to next-auth with the CSRF token. */
function ProviderForm({
  provider,
  name,
  token,
  callbackUrl,
}: {
  provider: string;
  name: string;
  token: string | null;
  callbackUrl: string;
}) {
  return (
    <form
      method="post"
      action={`/api/auth/signin/${provider}`}
      className="mt-6 border-t border-slate-200 pt-6 dark:border-slate-800"
    >
      <input type="hidden" name="csrfToken" value={token ?? ""} />
      <input type="hidden" name="callbackUrl" value={callbackUrl} />
      <button type="submit" disabled={!token} className={secondary}>
        {`Sign in with ${name}`}
      </button>
    </form>
  );
}

type Pending = { email: string; callbackUrl: string };

function readPending(): Pending | null {
  try {
    const value = JSON.parse(sessionStorage.getItem(PENDING) ?? "null") as Partial<Pending> | null;
    return typeof value?.email === "string"
      ? { email: value.email, callbackUrl: String(value.callbackUrl ?? "/") }
      : null;
  } catch {
    return null;
  }
}

/**
 * The check-your-email page's body: where the link went, what to do when it does not arrive, and a
 * resend that opens after `delaySeconds` (mail takes a moment; an early resend only adds a second mail).
 */
export function CheckEmail({ delaySeconds, from }: { delaySeconds: number; from: string }) {
  const [pending, setPending] = useState<Pending | null>(null);
  // A deadline, not a count of ticks: the seconds left are read from the clock, so a slow or
  // throttled tab (timers run late in the background) never keeps the button shut for longer.
  const [opensAt, setOpensAt] = useState<number | null>(null);
  const [now, setNow] = useState(0);
  const left = opensAt === null ? delaySeconds : Math.max(0, Math.ceil((opensAt - now) / 1000));
  const [status, setStatus] = useState<{ message?: string; error?: string }>({});
  const [sending, setSending] = useState(false);

  useEffect(() => {
    // sessionStorage and the clock are read in the browser after hydration, so server and client render alike.
    const stored = readPending();
    const start = Date.now();
    queueMicrotask(() => {
      setPending(stored);
      setNow(start);
      setOpensAt(start + delaySeconds * 1000);
    });
  }, [delaySeconds]);
  useEffect(() => {
    if (opensAt === null) return;
    const timer = setInterval(() => {
      const t = Date.now();
      setNow(t);
      if (t >= opensAt) clearInterval(timer);
    }, 1000);
    return () => clearInterval(timer);
  }, [opensAt]);

  async function resend() {
    if (!pending) return;
    setSending(true);
    setStatus({});
    try {
      const body = new URLSearchParams({
        email: pending.email,
        callbackUrl: pending.callbackUrl,
        csrfToken: await fetchCsrfToken(),
        json: "true",
      });
      const res = await fetch("/api/auth/signin/email", {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json" },
        body,
      });
      const answer = (await res.json().catch(() => ({}))) as { url?: string; error?: { message?: string } };
      if (res.ok && answer.url && !new URL(answer.url, location.href).searchParams.has("error")) {
        setStatus({ message: `Sent another link to ${pending.email}. Either link works, for 15 minutes.` });
        const t = Date.now();
        setNow(t);
        setOpensAt(t + delaySeconds * 1000);
      } else {
        setStatus({ error: answer.error?.message ?? "The link could not be sent. Try again in a minute." });
      }
    } catch {
      setStatus({ error: "The link could not be sent: the server did not answer. Try again in a minute." });
    } finally {
      setSending(false);
    }
  }

  return (
    <>
      <p className="mt-3 text-lg">
        We sent a sign-in link to {pending ? <strong>{pending.email}</strong> : "your address"}. Open it in this browser
        to sign in; it works once, for 15 minutes.
      </p>
      <h2 className="mt-8 text-xl font-semibold">No mail?</h2>
      <ul className="mt-2 list-disc space-y-1 pl-5">
        <li>Mail can take a minute or two to arrive.</li>
        <li>
          Look in your spam or junk folder for a mail from <strong>{from}</strong>; marking it “not spam” brings the
          next one to your inbox.
        </li>
        <li>Check that the address above is the one you meant; if not, ask for a link to the right one.</li>
      </ul>
      <div className="mt-6 flex flex-col gap-3 sm:flex-row sm:items-center">
        {pending ? (
          <button type="button" onClick={resend} disabled={left > 0 || sending} className={primary}>
            {left > 0 ? `Send the link again (in ${left} s)` : sending ? "Sending…" : "Send the link again"}
          </button>
        ) : null}
        <Link href="/sign-in" className="text-indigo-700 underline dark:text-indigo-300">
          Use another address
        </Link>
      </div>
      <p role="status" className="mt-3 text-sm">
        {status.message}
      </p>
      {status.error && (
        <p role="alert" className="mt-1 text-sm font-medium text-red-700 dark:text-red-400">
          {status.error}
        </p>
      )}
    </>
  );
}

export function SignOutForm() {
  const { token, failed } = useCsrfToken();
  return (
    <form method="post" action="/api/auth/signout" className="mt-6">
      <input type="hidden" name="csrfToken" value={token ?? ""} />
      <input type="hidden" name="callbackUrl" value="/" />
      <button type="submit" disabled={!token} className={primary}>
        Sign out
      </button>
      {failed && <Unavailable />}
    </form>
  );
}
