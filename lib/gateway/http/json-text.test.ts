import { describe, expect, it } from "vitest";
import { JsonText } from "./json-text.ts";

describe("JsonText", () => {
  it("serialises as the value its text stands for, where nothing sends the text as it is", () => {
    const text = new JsonText('{"count":2,"results":[{"id":"a"},{"id":"b"}]}');
    expect(JSON.stringify({ answer: text })).toBe('{"answer":{"count":2,"results":[{"id":"a"},{"id":"b"}]}}');
  });
});
