import { z } from "@hono/zod-openapi";
import { GatewayError } from "../../../errors.ts";
import { spendRefusal } from "../../../gateway/http/guard.ts";
import { BudgetExceeded } from "../../../jobs/budget-exceeded.ts";
import { TASK_STATUSES } from "../../../jobs/task-store.ts";
import { gatewayRoute } from "../../../gateway/http/route.ts";
import { ErrorSchema, jsonRequest, jsonResponse, keyedErrors } from "../../../gateway/http/schemas.ts";
import { Reply } from "../../../gateway/pipeline/answer.ts";
import { route, type Handler, type RouteDef } from "../../../gateway/pipeline/route.ts";
import { pollVideo, startVideo } from "../../../llm/gemini-native.ts";
import { videoParameters } from "../video-params.ts";
import { providerErrors } from "../../../llm/route-schemas.ts";

const VIDEO_KIND = "llm.video";
const VideoTask = z.object({
  task_id: z.string(),
  status: z.enum(TASK_STATUSES).openapi({
    description: "budget_exceeded: the key's hard-stop monthly budget ran out before the video was collected",
  }),
  video_url: z.string().nullable().optional(),
  error: z.string().nullable().optional(),
  model: z.string().optional(),
  aspect_ratio: z.string().optional(),
  duration_seconds: z
    .number()
    .int()
    .optional()
    .openapi({ description: "The length Veo was asked for, after mapping the requested duration" }),
});
const videoGenerate = gatewayRoute("key", {
  method: "post",
  path: "/v1/llm/video/generate",
  summary: "Start a video (Google Veo); poll GET /v1/llm/video/{task_id}",
  tags: ["LLM"],
  request: jsonRequest(
    z.object({
      prompt: z.string().min(1).max(5000),
      aspect_ratio: z
        .string()
        .max(20)
        .default("16:9")
        .openapi({ description: "16:9 (default) or 9:16; Veo makes no 1:1" }),
      duration: z
        .number()
        .int()
        .min(1)
        .max(60)
        .default(5)
        .openapi({ description: "Seconds: 5 (default) or 10, made as 6 and 8 by Veo 3; or Veo 3's own 4, 6, 8" }),
    }),
  ),
  responses: { 202: jsonResponse(VideoTask, "Accepted: pending"), ...keyedErrors, ...providerErrors },
});

const handleVideoGenerate: Handler<typeof videoGenerate> = async (c, { body }) => {
  const rt = c.runtime;
  const key = c.key!;
  const keyId = key.id;
  const video = videoParameters(body.aspect_ratio, body.duration);
  const pollMs = Number(process.env.VIDEO_POLL_MS ?? 10_000);
  let operation = "";
  // Runs inside the submission, after the key's queue quota: the task is recorded before Veo starts
  // (and bills) the video, so a failed save cannot orphan one; a refusal (unconfigured, bad prompt)
  // is this request's error as well as the task's.
  const start = async () => {
    const task = await rt.tasks.create(VIDEO_KIND, keyId, body);
    try {
      operation = await startVideo(body.prompt, video.aspectRatio, video.durationSeconds, video.model);
    } catch (err) {
      await rt.tasks.update(task.id, { status: "failed", error: err instanceof Error ? err.message : String(err) });
      throw err;
    }
    return task;
  };
  const task = await rt.runner.submit(key, start, async (_t, ctx) => {
    const deadline = Date.now() + 30 * 60_000;
    while (!ctx.signal.aborted && Date.now() < deadline) {
      // The key's work stops with its hard-stop budget, as its batches' and research agents' do.
      const refused = spendRefusal(rt, keyId);
      if (refused) throw new BudgetExceeded(refused, { video_url: null });
      const poll = await pollVideo(operation);
      if (poll.done) {
        if (poll.error) throw new Error(poll.error);
        return { video_url: poll.videoUrl };
      }
      await new Promise((r) => setTimeout(r, pollMs));
    }
    throw new Error("video generation did not finish within 30 minutes");
  });
  c.report({ provider: "gemini", model: video.model });
  return Reply.json(
    {
      task_id: task.id,
      status: "pending",
      model: video.model,
      aspect_ratio: video.aspectRatio,
      duration_seconds: video.durationSeconds,
    },
    202,
  );
};
const videoStatus = gatewayRoute("key", {
  method: "get",
  path: "/v1/llm/video/{task_id}",
  summary: "A video task's status, and the video URL when done",
  tags: ["LLM"],
  request: { params: z.object({ task_id: z.string().min(1).max(100) }) },
  responses: {
    200: jsonResponse(VideoTask, "Status"),
    ...keyedErrors,
    404: jsonResponse(ErrorSchema, "No such task for this key"),
  },
});

const handleVideoStatus: Handler<typeof videoStatus> = async (c, { params }) => {
  const task = await c.runtime.tasks.getForOwner(params.task_id, c.key!.id);
  if (!task || task.kind !== VIDEO_KIND) throw new GatewayError(404, "no such video task for this key");
  const result = task.result as { video_url?: string | null } | null;
  return { task_id: task.id, status: task.status, video_url: result?.video_url ?? null, error: task.error };
};

/** Video from Google Veo: started as a background task on the key's queue, then polled. */
export const videoRoutes: RouteDef[] = [
  route(videoGenerate, handleVideoGenerate),
  route(videoStatus, handleVideoStatus),
];
