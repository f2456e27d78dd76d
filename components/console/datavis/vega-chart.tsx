"use client";

import { useEffect, useRef, useState } from "react";

/** Renders a Vega-Lite spec with vega-embed, loaded on first use (it is large) and finalized on change. */
export function VegaChart({ spec, title }: { spec: Record<string, unknown>; title: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let finalize: (() => void) | undefined;
    let cancelled = false;
    void import("vega-embed")
      .then(({ default: embed }) =>
        ref.current && !cancelled
          ? embed(ref.current, spec as never, { actions: false, renderer: "svg", ast: false })
          : null,
      )
      .then((result) => {
        if (cancelled) result?.finalize();
        else finalize = result?.finalize;
      })
      .catch((e: unknown) => !cancelled && setError(e instanceof Error ? e.message : String(e)));
    return () => {
      cancelled = true;
      finalize?.();
    };
  }, [spec]);
  return (
    <>
      {error && (
        <p role="alert" className="text-red-800 dark:text-red-200">
          This chart could not be drawn: {error}
        </p>
      )}
      {/* The padding is outside the element Vega measures: a "container" width is that element's whole width. */}
      <div
        role="figure"
        aria-label={title}
        data-testid="vega-chart"
        className="w-full overflow-x-auto rounded-lg bg-white p-2 text-slate-900"
      >
        <div ref={ref} className="w-full" />
      </div>
    </>
  );
}
