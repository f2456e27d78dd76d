import { z } from "@hono/zod-openapi";
import { gatewayRoute } from "../../../gateway/http/route.ts";
import { jsonRequest, jsonResponse, keyedErrors } from "../../../gateway/http/schemas.ts";
import { route, type RouteDef } from "../../../gateway/pipeline/route.ts";
import { poolErrors, runOnPool } from "../../../gateway/runtime/worker-pool.ts";
import { DATA_FORMATS } from "../formats.ts";
import { assertNestingAllowed } from "../nesting-depth.ts";
import { dataConvert } from "../pool-tasks.ts";

const ConvertBody = z.object({
  data: z
    .union([z.string(), z.record(z.string(), z.unknown()), z.array(z.unknown())])
    .openapi({ description: "Text in source_format, or an already-parsed JSON value" }),
  source_format: z.enum(DATA_FORMATS).default("json"),
  target_format: z.enum(DATA_FORMATS).default("yaml"),
  pretty: z.boolean().default(true),
});

const convert = gatewayRoute("key", {
  method: "post",
  path: "/v1/utils/convert",
  summary: "Convert data between JSON, YAML, TOML, XML and CSV",
  tags: ["Utilities"],
  request: jsonRequest(ConvertBody),
  responses: {
    200: jsonResponse(
      z.object({ result: z.string(), source_format: z.string(), target_format: z.string() }),
      "Converted text",
    ),
    ...keyedErrors,
    ...poolErrors,
  },
});

export const dataConvertRoutes: RouteDef[] = [
  route(convert, async (c, { body }) => {
    // On the pool: the YAML parser checks duplicate keys pairwise, so 300,000 keys (3 MB) cost ~15 minutes of CPU.
    assertNestingAllowed(body.data);
    const args = { data: body.data, from: body.source_format, to: body.target_format, pretty: body.pretty };
    const result = await runOnPool(c.runtime, dataConvert, args, "data");
    return { result, source_format: body.source_format, target_format: body.target_format };
  }),
];
