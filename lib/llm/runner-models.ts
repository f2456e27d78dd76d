import { defaultHost, installedModels, type RunnerModel } from "./ollama.ts";

/** How long the operator's runner's model list is kept: a pull or a delete shows within this. */
const KEEP_MS = 15_000;
/** A runner that does not answer within this lists nothing rather than hold up the model list. */
const TIMEOUT_MS = 3_000;

let kept: { url: string; at: number; models: Promise<RunnerModel[]> } | undefined;

/**
 * The models installed on the operator's runner (UPSTREAM_OLLAMA_URL), read at most once per KEEP_MS;
 * none when it cannot be reached (then nothing it lacks is offered either).
 */
export function runnerModels(now = Date.now()): Promise<RunnerModel[]> {
  const url = defaultHost().url;
  if (kept && kept.url === url && now - kept.at < KEEP_MS) return kept.models;
  const models = installedModels({ url, default: true }, TIMEOUT_MS).catch(() => []);
  kept = { url, at: now, models };
  return models;
}
