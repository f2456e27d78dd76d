import { z } from "@hono/zod-openapi";
import { gatewayRoute } from "../../../gateway/http/route.ts";
import { jsonRequest, jsonResponse } from "../../../gateway/http/schemas.ts";
import { route, type RouteDef } from "../../../gateway/pipeline/route.ts";
import { poolErrors, runOnPool } from "../../../gateway/runtime/worker-pool.ts";
import { TEXT_FORMATS } from "../formats.ts";
import { formatConvert } from "../pool-tasks.ts";
import { keylessText, openErrors } from "./keyless.ts";

const FormatBody = z.object({
  content: keylessText("content"),
  from_format: z.enum(TEXT_FORMATS).default("markdown"),
  to_format: z.enum(TEXT_FORMATS).default("html"),
});

const format = gatewayRoute(
  "none",
  {
    method: "post",
    path: "/v1/utils/format/convert",
    summary: "Convert text between Markdown, HTML (sanitised) and plain text",
    tags: ["Utilities"],
    request: jsonRequest(FormatBody),
    responses: {
      200: jsonResponse(
        z.object({ result: z.string(), from_format: z.string(), to_format: z.string() }),
        "Converted text",
      ),
      ...openErrors,
      ...poolErrors,
    },
  },
  { limitKeyless: true },
);

export const formatConvertRoutes: RouteDef[] = [
  route(format, async (c, { body }) => {
    // On the pool: marked's emphasis rules are quadratic, so 100 kB of `_a**` costs ~45 s of CPU.
    const args = { content: body.content, from: body.from_format, to: body.to_format };
    const result = await runOnPool(c.runtime, formatConvert, args, "content");
    return { result, from_format: body.from_format, to_format: body.to_format };
  }),
];
