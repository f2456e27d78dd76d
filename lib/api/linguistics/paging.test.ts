import { describe, expect, it } from "vitest";
import { GatewayError } from "../../errors.ts";
import { resolvePaging } from "./paging.ts";

describe("resolvePaging", () => {
  it("is Form A with limit 50 from 0 when nothing is given", () => {
    expect(resolvePaging({})).toEqual({ form: "A", offset: 0, limit: 50 });
    expect(resolvePaging({ limit: 10, offset: 20 })).toEqual({ form: "A", offset: 20, limit: 10 });
  });

  it("is Form B, 100 a page, when page or per_page is given", () => {
    expect(resolvePaging({ page: 3 })).toEqual({ form: "B", offset: 200, limit: 100, page: 3, per_page: 100 });
    expect(resolvePaging({ per_page: 25 })).toEqual({ form: "B", offset: 0, limit: 25, page: 1, per_page: 25 });
  });

  it("refuses a mix of the two forms with 400", () => {
    expect(() => resolvePaging({ limit: 10, page: 2 })).toThrow(GatewayError);
    try {
      resolvePaging({ offset: 5, per_page: 10 });
    } catch (err) {
      expect((err as GatewayError).status).toBe(400);
    }
  });
});
