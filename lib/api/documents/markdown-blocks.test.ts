import { describe, expect, it } from "vitest";
import { GatewayError } from "../../errors.ts";
import { markdownBlocks } from "./markdown-blocks.ts";

describe("markdownBlocks", () => {
  it("reads a quote and a list as blocks", () => {
    expect(markdownBlocks("> quoted\n\n- one\n- two")).toEqual([
      { kind: "quote", spans: [{ text: "quoted" }] },
      {
        kind: "list",
        items: [
          { depth: 0, ordered: false, index: 1, spans: [{ text: "one" }] },
          { depth: 0, ordered: false, index: 2, spans: [{ text: "two" }] },
        ],
      },
    ]);
  });

  it("refuses quotes nested deeper than the stack holds with a 400, not a stack overflow", () => {
    // 200,000 levels overflow any stack the gateway runs with (4 MB on the worker pool).
    const nested = `${"> ".repeat(200_000)}x`;
    let thrown: unknown;
    try {
      markdownBlocks(nested);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(GatewayError);
    expect(thrown).toMatchObject({ status: 400, message: "content is nested too deeply to render" });
  });
});
