import { z } from "@hono/zod-openapi";
import { gatewayRoute } from "../../gateway/http/route.ts";
import { ErrorSchema, jsonRequest, jsonResponse, keyedErrors } from "../../gateway/http/schemas.ts";
import { route, type Handler, type RouteDef } from "../../gateway/pipeline/route.ts";
import { perRuntime } from "../../gateway/runtime/per-runtime.ts";
import { ScreenshotService, type WaitStrategy } from "./capture.ts";
import { PRESET_NAMES, PRESETS, SOCIAL_PRESETS, type PresetName } from "./presets.ts";

const serviceFor = perRuntime((rt) => {
  const service = new ScreenshotService(
    rt.config.screenshot,
    () => ({
      maxBytes: rt.config.proxy.maxBytes,
      timeoutMs: rt.config.proxy.timeoutMs,
      maxRedirects: 5,
      userAgent: "UnifiedAPIGateway/1.0 (screenshots)",
      allowPrivate: rt.config.proxy.allowPrivate,
      extraCa: rt.config.proxy.extraCa,
      resolve: rt.resolveHost,
    }),
    (message, err) => rt.logger.warn({ err }, message),
  );
  rt.onClose(() => service.close());
  return service;
});

const CaptureBody = z.object({
  url: z.string().min(1).openapi({ description: "HTTPS page to capture" }),
  full_page: z.boolean().optional().openapi({ description: "Form A" }),
  width: z.number().int().min(200).max(3840).optional().openapi({ description: "Form A, default 1280" }),
  height: z.number().int().min(200).max(2160).optional().openapi({ description: "Form A, default 800" }),
  presets: z
    .array(z.enum(PRESET_NAMES as [PresetName, ...PresetName[]]))
    .min(1)
    .max(PRESET_NAMES.length)
    .optional()
    .openapi({ description: "Form B; default all social presets" }),
  waitStrategy: z.enum(["networkidle", "load", "domcontentloaded", "commit"]).optional(),
  customSelector: z.string().min(1).max(500).optional(),
  extraWaitMs: z.number().int().min(0).max(30_000).optional(),
});

const FormAResult = z.object({
  format: z.literal("png"),
  width: z.number().int(),
  height: z.number().int(),
  screenshot: z.string(),
});
const FormBResult = z.object({
  url: z.string(),
  screenshots: z.array(
    z.object({
      preset: z.string(),
      label: z.string(),
      width: z.number().int(),
      height: z.number().int(),
      mimeType: z.literal("image/png"),
      imageData: z.string(),
    }),
  ),
});

const capture = gatewayRoute("key", {
  method: "post",
  path: "/v1/screenshot/capture",
  summary: "Screenshot a public HTTPS page (Form A: one size; Form B: social and device presets)",
  tags: ["Screenshots"],
  request: jsonRequest(CaptureBody),
  responses: {
    200: jsonResponse(z.union([FormAResult, FormBResult]), "PNG screenshots, base64"),
    ...keyedErrors,
    502: jsonResponse(ErrorSchema, "The page could not be loaded"),
    503: jsonResponse(ErrorSchema, "The screenshot service is busy or Chromium is missing"),
    504: jsonResponse(ErrorSchema, "The capture took too long"),
  },
});

const handleCapture: Handler<typeof capture> = async (c, { body }) => {
  const service = serviceFor(c.runtime);
  const formB =
    body.presets !== undefined ||
    body.waitStrategy !== undefined ||
    body.customSelector !== undefined ||
    body.extraWaitMs !== undefined;
  if (!formB) {
    const [shot] = await service.capture({
      url: body.url,
      shots: [{ width: body.width ?? 1280, height: body.height ?? 800, scale: 1, fullPage: body.full_page ?? false }],
      wait: "load",
      extraWaitMs: 0,
    });
    return {
      format: "png" as const,
      width: shot!.width,
      height: shot!.height,
      screenshot: shot!.png.toString("base64"),
    };
  }
  const presets = body.presets ?? SOCIAL_PRESETS;
  const shots = await service.capture({
    url: body.url,
    shots: presets.map((name) => ({
      width: PRESETS[name].width,
      height: PRESETS[name].height,
      scale: PRESETS[name].scale,
      fullPage: false,
    })),
    wait: (body.waitStrategy ?? "networkidle") as WaitStrategy,
    selector: body.customSelector,
    extraWaitMs: body.extraWaitMs ?? 0,
  });
  return {
    url: body.url,
    screenshots: shots.map((shot, i) => ({
      preset: presets[i]!,
      label: PRESETS[presets[i]!].label,
      width: shot.width,
      height: shot.height,
      mimeType: "image/png" as const,
      imageData: shot.png.toString("base64"),
    })),
  };
};

export const screenshotRoutes: RouteDef[] = [route(capture, handleCapture)];
