import { describe, expect, it } from "vitest";
import { answer, podRecords } from "./normalise.ts";

const body = {
  queryresult: {
    success: true,
    error: false,
    pods: [
      { title: "Input interpretation", id: "Input", subpods: [{ plaintext: "integrate x^2 dx" }] },
      {
        title: "Indefinite integral",
        id: "IndefiniteIntegral",
        primary: true,
        subpods: [{ plaintext: "∫x^2 dx = x^3/3 + constant", img: { src: "https://www5a.wolframalpha.com/x.gif" } }],
      },
    ],
  },
};

describe("wolfram answers", () => {
  it("take the primary pod's text as the result and keep every pod", () => {
    const a = answer("integrate x^2", body);
    expect(a).toMatchObject({ query: "integrate x^2", success: true, result: "∫x^2 dx = x^3/3 + constant" });
    expect(a.pods[1]).toEqual({
      title: "Indefinite integral",
      id: "IndefiniteIntegral",
      primary: true,
      text: "∫x^2 dx = x^3/3 + constant",
      images: ["https://www5a.wolframalpha.com/x.gif"],
    });
    expect(podRecords(a).map((r) => r.id)).toEqual(["Input", "IndefiniteIntegral"]);
  });

  it("fall back to the Result pod, then the second pod, when none is primary", () => {
    const pods = [
      { title: "Input", id: "Input", subpods: [{ plaintext: "2+2" }] },
      { title: "Other", id: "Other", subpods: [{ plaintext: "four" }] },
      { title: "Result", id: "Result", subpods: [{ plaintext: "4" }] },
    ];
    expect(answer("2+2", { queryresult: { success: true, pods } }).result).toBe("4");
    expect(answer("2+2", { queryresult: { success: true, pods: pods.slice(0, 2) } }).result).toBe("four");
  });

  it("turn Wolfram's error flag into a 502 with its message", () => {
    expect(() => answer("x", { queryresult: { error: { msg: "Invalid appid" } } })).toThrow(
      /wolfram failed: Invalid appid/,
    );
  });
});
