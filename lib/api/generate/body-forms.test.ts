import { z } from "@hono/zod-openapi";
import { describe, expect, it } from "vitest";
import { GatewayError } from "../../errors.ts";
import { acceptInput } from "../../gateway/http/validation.ts";
import { bodyForms } from "./body-forms.ts";

const forms = bodyForms(
  z.object({ topic: z.string(), duration: z.number().int().default(60) }),
  z.object({ topic: z.string(), duration: z.enum(["30min", "60min"]).default("60min"), focus: z.string().optional() }),
  (b) => "focus" in b || typeof b.duration === "string",
);

const refusal = (run: () => unknown): GatewayError | undefined => {
  try {
    run();
  } catch (err) {
    return err as GatewayError;
  }
};

describe("bodyForms", () => {
  it("parses the body as the form its fields pick, with that form's defaults", () => {
    expect(forms.parse({ topic: "x" })).toEqual({ form: "A", body: { topic: "x", duration: 60 } });
    expect(forms.parse({ topic: "x", focus: "f" })).toEqual({
      form: "B",
      body: { topic: "x", duration: "60min", focus: "f" },
    });
  });

  it("reports the picked form's problems as a 400 naming the field and allowed values", () => {
    const error = refusal(() => forms.parse({ topic: "x", duration: "90min" }));
    expect(error).toBeInstanceOf(GatewayError);
    expect(error!.status).toBe(400);
    expect(error!.message).toContain('duration: Invalid option: expected one of "30min"|"60min"');
  });

  it("declares a schema that refuses a body with the picked form's problems, not the union's", () => {
    const declared = (body: unknown) => acceptInput(forms.schema.safeParse(body), "body");
    for (const body of [{ topic: "x", duration: "90min" }, { topic: 3 }, [], { topic: "x", duration: 1.5 }]) {
      expect(refusal(() => declared(body))?.message).toBe(refusal(() => forms.parse(body))?.message);
    }
    expect(refusal(() => declared({ topic: "x", duration: "90min" }))?.message).not.toContain("Invalid input");
    expect(forms.schema.safeParse({ topic: "x", focus: "f" }).success).toBe(true);
    expect(forms.schema.safeParse({ topic: "x", duration: 30 }).success).toBe(true);
  });
});
