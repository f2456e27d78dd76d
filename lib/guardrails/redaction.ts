// Reversible redaction: each personal value found in a prompt is replaced by a placeholder naming its
// kind ([EMAIL_1]), the same value by the same placeholder, so the provider sees the text's shape but
// not the values; the placeholders the answer repeats are put back before the caller sees it.
import type { PiiFinding } from "./pii.ts";

export type Redaction = { text: string; values: Map<string, string> };

/** `text` with each finding replaced; `values` maps each placeholder to what it stands for. */
export function redact(text: string, findings: readonly PiiFinding[], values = new Map<string, string>()): Redaction {
  const placeholderOf = new Map([...values].map(([placeholder, value]) => [value, placeholder]));
  const counts = new Map<string, number>();
  for (const placeholder of values.keys()) {
    const kind = placeholder.slice(1, placeholder.lastIndexOf("_"));
    counts.set(kind, (counts.get(kind) ?? 0) + 1);
  }
  let out = "";
  let at = 0;
  for (const f of findings) {
    let placeholder = placeholderOf.get(f.value);
    if (!placeholder) {
      const kind = f.kind.toUpperCase();
      const n = (counts.get(kind) ?? 0) + 1;
      counts.set(kind, n);
      placeholder = `[${kind}_${n}]`;
      placeholderOf.set(f.value, placeholder);
      values.set(placeholder, f.value);
    }
    out += text.slice(at, f.start) + placeholder;
    at = f.end;
  }
  return { text: out + text.slice(at), values };
}

const PLACEHOLDER = /\[(?:EMAIL|PHONE|CARD|IBAN|NATIONAL_ID|IP|SECRET)_\d{1,6}\]/g;

/** `text` with every placeholder of `values` put back; others (the model's own brackets) stay. */
export function restore(text: string, values: ReadonlyMap<string, string>): string {
  if (values.size === 0) return text;
  return text.replace(PLACEHOLDER, (placeholder) => values.get(placeholder) ?? placeholder);
}

/** `json` (an answer's text) with every placeholder of `values` put back, each value escaped as JSON string text. */
export function restoreInJson(json: string, values: ReadonlyMap<string, string>): string {
  if (values.size === 0) return json;
  return json.replace(PLACEHOLDER, (placeholder) => {
    const value = values.get(placeholder);
    return value === undefined ? placeholder : JSON.stringify(value).slice(1, -1);
  });
}
