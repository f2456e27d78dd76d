import { z } from "@hono/zod-openapi";
import { acceptInput } from "../../gateway/http/validation.ts";

export type FormOf<A extends z.ZodType, B extends z.ZodType> =
  { form: "A"; body: z.infer<A> } | { form: "B"; body: z.infer<B> };

export type BodyForms<A extends z.ZodType, B extends z.ZodType> = {
  /**
   * What the route declares: either form, documented as their union. A union that fails says only
   * "Invalid input"; this one is first checked as the form the body's fields pick, so a 400 names the
   * field and its allowed values.
   */
  schema: z.ZodType<z.output<A> | z.output<B>>;
  /** The body validated as the form its fields pick (a union would take Form A and drop Form B's fields). */
  parse(raw: unknown): FormOf<A, B>;
};

/** A request body in Form A or Form B, told apart by `isFormB` on its fields. */
export function bodyForms<A extends z.ZodType, B extends z.ZodType>(
  formA: A,
  formB: B,
  isFormB: (body: Record<string, unknown>) => boolean,
): BodyForms<A, B> {
  const picksB = (raw: unknown) => isFormB(raw && typeof raw === "object" ? (raw as Record<string, unknown>) : {});
  const parse = (raw: unknown): FormOf<A, B> =>
    picksB(raw)
      ? { form: "B", body: acceptInput(formB.safeParse(raw), "body") }
      : { form: "A", body: acceptInput(formA.safeParse(raw), "body") };
  // A preprocess is documented as the schema it leads to: the union.
  const schema = z.preprocess(
    (raw, ctx) => {
      const picked = (picksB(raw) ? formB : formA).safeParse(raw);
      if (!picked.success) for (const issue of picked.error.issues) ctx.addIssue(issue as z.core.$ZodRawIssue);
      return raw;
    },
    z.union([formA, formB]),
  );
  return { schema, parse };
}
