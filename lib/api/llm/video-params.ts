import { GatewayError } from "../../errors.ts";
import { VIDEO_MODEL_DEFAULT } from "../../llm/gemini-native.ts";

/** What each Veo model makes, as Google documents it (Vertex AI / Gemini API model pages). */
export const VEO_MODELS: Record<string, { durations: readonly number[]; aspectRatios: readonly string[] }> = {
  "veo-3.0-generate-001": { durations: [4, 6, 8], aspectRatios: ["16:9", "9:16"] },
  "veo-2.0-generate-001": { durations: [5, 6, 7, 8], aspectRatios: ["16:9", "9:16"] },
};

/** The spec's durations (5 default, or 10), which are mapped onto what the model makes. */
export const SPEC_DURATIONS = [5, 10] as const;

export type VideoParameters = { model: string; aspectRatio: string; durationSeconds: number };

const list = (values: readonly (string | number)[]) =>
  values.length > 1 ? `${values.slice(0, -1).join(", ")} or ${values.at(-1)}` : String(values[0]);

/**
 * The parameters Veo is sent. A duration the model makes goes as is; the spec's 5 and 10 become the
 * shortest the model makes that is at least as long, else its longest (Veo 3: 5 → 6, 10 → 8). Anything
 * else, and an aspect ratio the model does not make (1:1: no Veo model does), is a 400 naming the allowed
 * values, so nothing reaches Veo that it would refuse.
 */
export function videoParameters(aspectRatio: string, duration: number, model = VIDEO_MODEL_DEFAULT): VideoParameters {
  const makes = VEO_MODELS[model];
  if (!makes) throw new GatewayError(400, `unknown video model '${model}': use ${list(Object.keys(VEO_MODELS))}`);
  if (!makes.aspectRatios.includes(aspectRatio)) {
    throw new GatewayError(
      400,
      `aspect_ratio '${aspectRatio}' is not one ${model} makes: use ${list(makes.aspectRatios)}`,
    );
  }
  if (makes.durations.includes(duration)) return { model, aspectRatio, durationSeconds: duration };
  if ((SPEC_DURATIONS as readonly number[]).includes(duration)) {
    const durationSeconds = makes.durations.find((d) => d >= duration) ?? makes.durations.at(-1)!;
    return { model, aspectRatio, durationSeconds };
  }
  const allowed = [...new Set([...makes.durations, ...SPEC_DURATIONS])].sort((a, b) => a - b);
  throw new GatewayError(
    400,
    `duration ${duration} is not available: use ${list(allowed)} seconds (${model} makes ${list(makes.durations)}; 5 and 10 are mapped onto those)`,
  );
}
