import { z } from "@hono/zod-openapi";
import type { Hook } from "@hono/zod-openapi";
import type { GatewayEnv } from "../../gateway/http/context.ts";
import { acceptInput, validationHook } from "../../gateway/http/validation.ts";

export type FormOf<A extends z.ZodType, B extends z.ZodType> =
  { form: "A"; body: z.infer<A> } | { form: "B"; body: z.infer<B> };

export type BodyForms<A extends z.ZodType, B extends z.ZodType> = {
  /** What the route documents: either form. */
  schema: z.ZodUnion<[A, B]>;
  /**
   * The route's validation hook. A union that fails says only "Invalid input"; this reports the
   * problems of the form the body's fields pick instead, so a 400 names the field and its allowed values.
   */
  hook: Hook<unknown, GatewayEnv, string, undefined>;
  /** The body validated as the form its fields pick (a union would take Form A and drop Form B's fields). */
  parse(raw: unknown): FormOf<A, B>;
};

/** A request body in Form A or Form B, told apart by `isFormB` on its fields. */
export function bodyForms<A extends z.ZodType, B extends z.ZodType>(
  formA: A,
  formB: B,
  isFormB: (body: Record<string, unknown>) => boolean,
): BodyForms<A, B> {
  const parse = (raw: unknown): FormOf<A, B> => {
    const fields = raw && typeof raw === "object" ? (raw as Record<string, unknown>) : {};
    return isFormB(fields)
      ? { form: "B", body: acceptInput(formB.safeParse(raw), "body") }
      : { form: "A", body: acceptInput(formA.safeParse(raw), "body") };
  };
  return {
    schema: z.union([formA, formB]),
    hook: (result, c) => {
      if (result.target === "json" && !result.success) parse((result as { data?: unknown }).data);
      return validationHook(result, c) as undefined;
    },
    parse,
  };
}
