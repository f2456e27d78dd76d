import type { z } from "zod";

/** A form's field names (as the schema's keys) and the labels a person sees beside them. */
export type FieldLabels = Readonly<Record<string, string>>;

type RawIssue = z.core.$ZodRawIssue;

const sentence = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * A sentence for an issue the schema left to zod's default wording ("Too small: expected string to
 * have >=1 characters"), naming the field by its label. A schema's own message always wins over this.
 */
function worded(labels: FieldLabels) {
  return (issue: RawIssue): string => {
    const field = String(issue.path?.[0] ?? "");
    const label = labels[field] ?? "This field";
    const input = issue.input;
    switch (issue.code) {
      case "too_small": {
        const min = Number(issue.minimum);
        if (issue.origin === "string")
          return min <= 1 ? `${label} cannot be empty` : `${label} needs at least ${min} characters`;
        if (issue.origin === "array" || issue.origin === "set") return `${label}: choose at least ${min}`;
        return `${label} is at least ${min.toLocaleString("en-US")}`;
      }
      case "too_big": {
        const max = Number(issue.maximum);
        if (issue.origin === "string")
          return `${label} is at most ${max.toLocaleString("en-US")} character${max === 1 ? "" : "s"}`;
        if (issue.origin === "array" || issue.origin === "set") return `${label}: choose at most ${max}`;
        return `${label} is at most ${max.toLocaleString("en-US")}`;
      }
      case "invalid_type":
        if (input === undefined || input === null || input === "") return `${label} is missing`;
        return issue.expected === "number" || issue.expected === "int"
          ? `${label} is a number`
          : `${label} is not valid`;
      case "not_multiple_of":
        return `${label} is a whole number`;
      case "invalid_value":
        return `${label}: choose one of ${issue.values.map(String).join(", ")}`;
      case "invalid_format":
        return `${label} is not a valid ${issue.format === "email" ? "email address" : issue.format}`;
      default:
        return `${label} is not valid`;
    }
  };
}

/**
 * Parses a form's fields with `schema`, its problems worded for the person who filled it in: a schema's
 * own messages as written, zod's defaults as sentences naming the field by its label.
 */
export function parseForm<T extends z.ZodType>(
  schema: T,
  input: unknown,
  labels: FieldLabels = {},
): z.ZodSafeParseResult<z.output<T>> {
  return schema.safeParse(input, { error: worded(labels) }) as z.ZodSafeParseResult<z.output<T>>;
}

/** The first problem of a form's input as the sentence a form shows: never a field's code name. */
export function formIssue(err: z.ZodError): string {
  const message = err.issues[0]?.message;
  return message ? sentence(message) : "Check the form and send it again";
}
