"use client";

import { createContext, useActionState, useContext, useState, type ReactNode } from "react";
import type { KeyActionState } from "@/app/keys/actions";
import { OneTimeKey } from "./one-time-key";

type ShownKey = NonNullable<KeyActionState["created"]>;

const ShowNewKey = createContext<(key: ShownKey) => void>(() => {});

/**
 * Holds a key made on the page (collected or rotated) above the page's lists, so the lists can be
 * brought up to date at once (the new key in its own card, "No keys yet" gone) while the key is still
 * shown once, here, until its owner says it is stored. The key lives in this component's state only.
 */
export function NewKeyHolder({ children }: { children: ReactNode }) {
  const [shown, setShown] = useState<ShownKey | null>(null);
  return (
    <ShowNewKey value={setShown}>
      {shown && (
        <OneTimeKey
          key={shown.prefix}
          name={shown.name}
          prefix={shown.prefix}
          secret={shown.key}
          focus
          onDone={() => setShown(null)}
        />
      )}
      {children}
    </ShowNewKey>
  );
}

type KeyAction = (previous: KeyActionState, form: FormData) => Promise<KeyActionState>;

/**
 * A form's action state, the key it makes handed to the page's holder as the action answers: in the
 * same update as the refreshed lists, which may take the form itself away (a collected request leaves
 * the list), so it cannot wait for the form's own next render.
 */
export function useNewKeyAction(act: KeyAction) {
  const show = useContext(ShowNewKey);
  return useActionState<KeyActionState, FormData>(async (previous, form) => {
    const state = await act(previous, form);
    if (state.created) show(state.created);
    return state;
  }, {});
}
