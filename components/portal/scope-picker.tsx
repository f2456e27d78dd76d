import type { ScopeMode } from "@/lib/portal/keys/scope-choice.ts";

/**
 * Which areas a key may call, asked so that "every area" is a choice someone makes, never what an
 * empty set of boxes happens to mean. A key the operator limited (`granted`) offers only its granted
 * areas, at least one ticked. Sends `scopeMode` ("all" or "some") and the ticked `scopes`.
 *
 * The boxes hide while "every area" is chosen, by CSS on the radio's own state rather than React
 * state: a form reset after its action (React's) puts the radios back to their defaults, and the
 * boxes follow whatever the radios say.
 */
export function ScopePicker({
  areas,
  selected,
  mode = selected.length ? "some" : "all",
  granted = false,
}: {
  areas: readonly string[];
  selected: readonly string[];
  /** The choice to start from (a refused form's, sent back); else "only these" when some are ticked. */
  mode?: ScopeMode;
  granted?: boolean;
}) {
  return (
    <fieldset className="group">
      <legend className="font-medium">Areas this key may call</legend>
      {granted ? (
        <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">
          The operator granted this key the areas below. Tick at least one.
        </p>
      ) : (
        <div className="mt-1 space-y-1 text-sm">
          <label className="flex items-center gap-2">
            <input type="radio" name="scopeMode" value="all" defaultChecked={mode === "all"} />
            Every area, including areas added later
          </label>
          <label className="flex items-center gap-2">
            <input type="radio" name="scopeMode" value="some" defaultChecked={mode === "some"} />
            Only the areas ticked below
          </label>
        </div>
      )}
      <div className="mt-2 grid grid-cols-2 gap-x-4 gap-y-1 text-sm group-has-[[value=all]:checked]:hidden sm:grid-cols-4">
        {areas.map((a) => (
          <label key={a} className="flex items-center gap-2">
            <input type="checkbox" name="scopes" value={a} defaultChecked={selected.includes(a)} />
            {a}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
