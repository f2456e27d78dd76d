"use client";

import { useMemo, useState, useSyncExternalStore } from "react";
import { ChatPreset, PRESETS_STORAGE_KEY, readPresets, withPreset } from "@/lib/console/chat-presets.ts";

const field =
  "rounded-lg border border-slate-400 bg-white px-3 py-2 text-slate-900 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100";
const button =
  "rounded-lg border border-slate-400 px-3 py-2 text-sm hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800";

type Settings = Omit<ChatPreset, "name">;

const CHANGED = "gateway-chat-presets";

function subscribe(changed: () => void): () => void {
  window.addEventListener("storage", changed);
  window.addEventListener(CHANGED, changed);
  return () => {
    window.removeEventListener("storage", changed);
    window.removeEventListener(CHANGED, changed);
  };
}

/**
 * Saved settings (model, system prompt, temperature) under a name, in this browser's localStorage:
 * choosing one puts its settings back; saving under a name already used replaces it.
 */
export function ChatPresets({ current, onLoad }: { current: Settings; onLoad: (preset: ChatPreset) => string | null }) {
  // The stored text (the server has none): other tabs' changes arrive by the storage event, this one's by `store`.
  const stored = useSyncExternalStore(
    subscribe,
    () => localStorage.getItem(PRESETS_STORAGE_KEY),
    () => null,
  );
  const presets = useMemo(() => readPresets(stored), [stored]);
  const [chosen, setChosen] = useState("");
  const [name, setName] = useState("");
  const [said, setSaid] = useState<{ message?: string; error?: string }>({});

  const store = (list: ChatPreset[]) => {
    localStorage.setItem(PRESETS_STORAGE_KEY, JSON.stringify(list));
    window.dispatchEvent(new Event(CHANGED));
  };

  const save = () => {
    const parsed = ChatPreset.safeParse({ ...current, name });
    if (!parsed.success) return setSaid({ error: parsed.error.issues[0]?.message ?? "This preset cannot be saved" });
    const list = withPreset(presets, parsed.data);
    if ("error" in list) return setSaid({ error: list.error });
    store(list);
    setChosen(parsed.data.name);
    setName("");
    setSaid({ message: `Saved “${parsed.data.name}”.` });
  };

  return (
    <div className="flex flex-col gap-2 rounded-lg border border-slate-300 p-3 dark:border-slate-700">
      <label className="flex flex-col gap-1 text-sm font-medium">
        Preset
        <select
          className={field}
          value={chosen}
          onChange={(e) => {
            setChosen(e.target.value);
            const preset = presets.find((p) => p.name === e.target.value);
            if (!preset) return;
            const problem = onLoad(preset);
            setSaid(problem ? { error: problem } : { message: `Settings of “${preset.name}” in place.` });
          }}
        >
          <option value="">{presets.length ? "Choose a saved preset" : "No presets saved yet"}</option>
          {presets.map((p) => (
            <option key={p.name} value={p.name}>
              {p.name}
            </option>
          ))}
        </select>
      </label>
      {chosen && (
        <button
          type="button"
          className={button}
          onClick={() => {
            store(presets.filter((p) => p.name !== chosen));
            setSaid({ message: `Deleted “${chosen}”.` });
            setChosen("");
          }}
        >
          Delete “{chosen}”
        </button>
      )}
      <label className="flex flex-col gap-1 text-sm font-medium">
        Save these settings as
        <input className={field} value={name} maxLength={60} onChange={(e) => setName(e.target.value)} />
      </label>
      <button type="button" className={button} onClick={save}>
        Save preset
      </button>
      <p role="status" className="text-sm">
        {said.message}
      </p>
      {said.error && (
        <p role="alert" className="text-sm text-red-800 dark:text-red-200">
          {said.error}
        </p>
      )}
    </div>
  );
}
