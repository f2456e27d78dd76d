import { describe, expect, it } from "vitest";
import { contentDisposition } from "./templates.ts";

describe("contentDisposition", () => {
  it("keeps the exact title in filename* and an ASCII fallback", () => {
    expect(contentDisposition("Quarterly report é", "pdf")).toBe(
      `attachment; filename="Quarterly-report-e.pdf"; filename*=UTF-8''Quarterly%20report%20%C3%A9.pdf`,
    );
  });

  it("never throws on a lone surrogate, nor cuts an emoji in half at the length cap", () => {
    expect(contentDisposition("Report \ud800", "docx")).toContain("filename*=UTF-8''Report%20%EF%BF%BD.docx");
    const long = `${"a".repeat(119)}😀tail`;
    expect(contentDisposition(long, "markdown")).toContain(`${"a".repeat(119)}%F0%9F%98%80.md`);
  });
});
