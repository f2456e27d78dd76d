import { z } from "zod";
import { describe, expect, it } from "vitest";
import { modelSchema, withoutSafeIntegerBounds } from "./model-schema.ts";

describe("withoutSafeIntegerBounds", () => {
  it("drops zod's ±9007199254740991 at any depth and keeps real bounds", () => {
    const schema = {
      type: "object",
      properties: {
        any: { type: "integer", minimum: -9007199254740991, maximum: 9007199254740991 },
        day: { type: "integer", minimum: 1, maximum: 30 },
        list: { type: "array", items: { anyOf: [{ type: "integer", minimum: -9007199254740991, maximum: 5 }] } },
      },
    };
    expect(withoutSafeIntegerBounds(schema).properties).toEqual({
      any: { type: "integer" },
      day: { type: "integer", minimum: 1, maximum: 30 },
      list: { type: "array", items: { anyOf: [{ type: "integer", maximum: 5 }] } },
    });
  });

  it("leaves values alone: a const or default may be any number", () => {
    const schema = { const: { minimum: -9007199254740991 }, default: { maximum: 9007199254740991 } };
    expect(withoutSafeIntegerBounds(structuredClone(schema))).toEqual(schema);
  });
});

describe("modelSchema", () => {
  const parse = z.object({ days: z.array(z.object({ day: z.number().int() })).max(10) });
  const sent = parse.extend({ days: z.array(z.object({ day: z.number().int().min(1).max(2) })).length(2) });

  it("sends the stricter schema, without safe-integer bounds", async () => {
    const json = JSON.stringify(await modelSchema(sent, parse).jsonSchema);
    expect(json).toContain('"minItems":2,"maxItems":2');
    expect(json).toContain('"minimum":1,"maximum":2');
    expect(json).not.toContain("9007199254740991");
    // The looser schema alone would have sent the safe-integer bounds.
    expect(JSON.stringify(z.toJSONSchema(parse))).toContain("9007199254740991");
  });

  it("parses with the looser schema: a count or number the model got wrong is still a value to fix", async () => {
    const schema = modelSchema(sent, parse);
    expect(await schema.validate!({ days: [{ day: 7 }] })).toEqual({ success: true, value: { days: [{ day: 7 }] } });
    const bad = await schema.validate!({ days: "three" });
    expect(bad.success).toBe(false);
  });
});
