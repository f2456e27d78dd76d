import { describe, expect, it } from "vitest";
import { z } from "zod";
import { formIssue, parseForm } from "./form-issue.ts";

const labels = { name: "Key name", limit: "Monthly limit", use: "Use type", when: "Last day", email: "Email" };
const schema = z.object({
  name: z.string().trim().min(1, "give the key a name").max(5),
  limit: z.coerce.number().int().min(1).max(1000),
  use: z.enum(["personal", "research"]),
  email: z.email().optional(),
});

const issueOf = (input: Record<string, unknown>) => {
  const parsed = parseForm(schema, { name: "ok", limit: "5", use: "personal", ...input }, labels);
  return parsed.success ? null : formIssue(parsed.error);
};

describe("form problems in words", () => {
  it("keeps a schema's own message, as a sentence, never prefixed with the field's code name", () => {
    expect(issueOf({ name: "  " })).toBe("Give the key a name");
  });

  it("words zod's defaults with the field's label", () => {
    expect(issueOf({ name: "far too long" })).toBe("Key name is at most 5 characters");
    expect(issueOf({ limit: "5000" })).toBe("Monthly limit is at most 1,000");
    expect(issueOf({ limit: "0" })).toBe("Monthly limit is at least 1");
    expect(issueOf({ limit: "lots" })).toBe("Monthly limit is a number");
    expect(issueOf({ limit: "2.5" })).toBe("Monthly limit is a number");
    expect(issueOf({ use: "other" })).toBe("Use type: choose one of personal, research");
    expect(issueOf({ use: undefined })).toBe("Use type: choose one of personal, research");
    expect(issueOf({ limit: undefined })).toBe("Monthly limit is a number");
    expect(issueOf({ email: "not-an-address" })).toBe("Email is not a valid email address");
  });

  it("names a field it has no label for as 'This field'", () => {
    const parsed = parseForm(z.object({ x: z.string().max(1) }), { x: "xx" });
    expect(parsed.success ? null : formIssue(parsed.error)).toBe("This field is at most 1 character");
  });

  it("parses what is valid as the schema does", () => {
    expect(parseForm(schema, { name: " Lap ", limit: "7", use: "research" }, labels)).toMatchObject({
      success: true,
      data: { name: "Lap", limit: 7, use: "research" },
    });
  });
});
