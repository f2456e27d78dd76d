import { describe, expect, it } from "vitest";
import { preferredType } from "./accept.ts";

const JSON_TYPE = "application/json";
const offered = [JSON_TYPE, "image/png", "image/jpeg", "image/webp"];
const choose = (accept: string | undefined) => preferredType(accept, offered, JSON_TYPE);

describe("preferredType", () => {
  it("keeps the default without an Accept, or for one naming nothing on offer", () => {
    expect(choose(undefined)).toBe(JSON_TYPE);
    expect(choose("")).toBe(JSON_TYPE);
    expect(choose("text/html, image/bmp")).toBe(JSON_TYPE);
  });

  it("lets a wildcard for all types choose nothing, and a type's wildcard choose its first type on offer", () => {
    expect(choose("*/*")).toBe(JSON_TYPE);
    expect(choose("*")).toBe(JSON_TYPE);
    expect(choose("image/*")).toBe("image/png");
    expect(choose("IMAGE/*")).toBe("image/png");
  });

  it("orders by weight, then by specificity, then as written", () => {
    expect(choose("image/*, application/json;q=0.5")).toBe("image/png");
    expect(choose("application/json, image/*")).toBe(JSON_TYPE);
    expect(choose("image/*, image/webp")).toBe("image/webp");
    expect(choose("image/webp;q=0.9, image/jpeg")).toBe("image/jpeg");
    expect(choose("image/jpeg, image/webp")).toBe("image/jpeg");
    expect(choose('image/webp;foo="a,b";q=0.9, image/jpeg;q=0.8')).toBe("image/webp");
  });

  it("refuses a type weighted 0, even where a wildcard would take it", () => {
    expect(choose("image/png;q=0, image/*")).toBe("image/jpeg");
    expect(choose("image/webp;q=0")).toBe(JSON_TYPE);
    expect(choose("image/webp;q=NaN")).toBe(JSON_TYPE);
  });

  it("reads an unreadable or out-of-range weight as browsers' defaults do", () => {
    expect(choose("image/webp;q=x, image/jpeg;q=0.9")).toBe("image/webp");
    expect(choose("image/webp;q=7, image/jpeg;q=0.9")).toBe("image/webp");
    expect(choose("image/webp;q=-1, image/jpeg;q=0.1")).toBe("image/jpeg");
    expect(choose("image/webp;Q=0.2, image/jpeg;q=0.3")).toBe("image/jpeg");
  });
});
