"use client";

import { useEffect, useState } from "react";
import { ApiError, signInHref } from "@/lib/console/api.ts";

/** Counts down a 429's retry time so the visitor sees when to try again. */
function RetryCountdown({ seconds }: { seconds: number }) {
  const [left, setLeft] = useState(seconds);
  // The moment the limit lifts, fixed when the 429 arrived.
  const [at] = useState(() => new Date(Date.now() + seconds * 1000).toISOString().slice(11, 19));
  useEffect(() => {
    const started = Date.now();
    const timer = setInterval(() => {
      const remaining = Math.max(0, seconds - Math.floor((Date.now() - started) / 1000));
      setLeft(remaining);
      if (remaining === 0) clearInterval(timer);
    }, 1000);
    return () => clearInterval(timer);
  }, [seconds]);
  return left > 0 ? (
    <>
      Try again in {left} s (at {at} UTC).
    </>
  ) : (
    <>You can try again now.</>
  );
}

/** The one way every console shows a failed call: signed out, rate limited, not configured, missing, or failed. */
export function ErrorState({ error, what }: { error: unknown; what: string }) {
  if (error instanceof DOMException && error.name === "AbortError") return null;
  const e = error instanceof ApiError ? error : new ApiError(0, error instanceof Error ? error.message : String(error));
  const path = typeof window === "undefined" ? "/" : window.location.pathname;
  const body = {
    "signed-out": (
      <>
        Your session has ended.{" "}
        <a className="font-medium underline" href={signInHref(path)}>
          Sign in again
        </a>
        .
      </>
    ),
    "rate-limited": (
      <>
        Rate limit reached: {e.message} {e.retryAfter !== null && <RetryCountdown seconds={e.retryAfter} />}
      </>
    ),
    "not-configured": <>Not configured on this server: {e.message}</>,
    "not-available": <>{what} is not available on this server.</>,
    invalid: <>The request was not accepted: {e.message}</>,
    failed: <>{e.status ? `The call failed (HTTP ${e.status}): ${e.message}` : `The call failed: ${e.message}`}</>,
  }[e.kind];
  return (
    <div
      role="alert"
      data-error-kind={e.kind}
      className="rounded-lg border border-red-300 bg-red-50 p-4 text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100"
    >
      {body}
    </div>
  );
}

export function Loading({ label }: { label: string }) {
  return (
    <p role="status" className="animate-pulse text-slate-600 dark:text-slate-400">
      {label}
    </p>
  );
}
