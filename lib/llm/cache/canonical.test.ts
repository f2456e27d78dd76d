import { describe, expect, it } from "vitest";
import { type Random, sample, seededRandom } from "../../../test/fuzz/seeded-random.ts";
import { canonicalChat, chatCacheKey } from "./canonical.ts";

type Body = Record<string, unknown>;

const MODEL = "openai/gpt-4o";

const weatherTool = {
  type: "function",
  function: {
    name: "get_weather",
    description: "The weather in a city",
    parameters: {
      type: "object",
      properties: { city: { type: "string" }, unit: { type: "string", enum: ["c", "f"] } },
      required: ["city"],
      additionalProperties: false,
    },
    strict: true,
  },
};

const answerSchema = {
  type: "json_schema",
  json_schema: {
    name: "answer",
    strict: true,
    schema: { type: "object", properties: { value: { type: "number" } }, required: ["value"] },
  },
};

const chat = (extra: Body = {}): Body => ({
  model: "gpt-4o",
  messages: [
    { role: "system", content: "You are terse." },
    { role: "user", content: "What is 2+2?" },
    { role: "assistant", content: "4" },
  ],
  ...extra,
});

const key = (body: Body, model = MODEL) => chatCacheKey(model, body);

/** A copy with every object's keys in reverse order, at every depth; arrays keep their order. */
function reversed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversed);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([k, v]) => [k, reversed(v)]),
  );
}

/** A copy with every object's keys in a random order, at every depth; arrays keep their order. */
function shuffled(value: unknown, random: Random): unknown {
  if (Array.isArray(value)) return value.map((v) => shuffled(v, random));
  if (typeof value !== "object" || value === null) return value;
  const entries = Object.entries(value);
  return Object.fromEntries(sample(entries, entries.length, random).map(([k, v]) => [k, shuffled(v, random)]));
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

describe("chatCacheKey", () => {
  it("is base64url of a SHA-256", () => {
    expect(key(chat())).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it("gives the same key whatever the order of keys, at every depth", () => {
    const body = chat({
      messages: [
        { role: "system", content: "You are terse.", name: "rules" },
        {
          role: "user",
          content: [
            { type: "text", text: "What is in this picture?" },
            { type: "image_url", image_url: { url: "https://example.com/a.png", detail: "low" } },
          ],
        },
        {
          role: "assistant",
          content: null,
          tool_calls: [{ id: "c1", type: "function", function: { name: "f", arguments: "{}" } }],
        },
        { role: "tool", tool_call_id: "c1", content: "done" },
      ],
      tools: [weatherTool],
      tool_choice: { type: "function", function: { name: "get_weather" } },
      response_format: answerSchema,
      logit_bias: { "50256": -100, "1234": 5 },
      seed: 7,
    });
    expect(key(reversed(body) as Body)).toBe(key(body));
    expect(JSON.stringify(canonicalChat(MODEL, reversed(body) as Body))).toBe(
      JSON.stringify(canonicalChat(MODEL, body)),
    );
  });

  it.each([
    ["temperature", 1],
    ["top_p", 1],
    ["n", 1],
    ["presence_penalty", 0],
    ["frequency_penalty", 0],
    ["logprobs", false],
    ["parallel_tool_calls", true],
    ["response_format", { type: "text" }],
    ["tool_choice", "none"],
  ])("gives the same key with %s spelled out as its default (%j)", (field, value) => {
    expect(key(chat({ [field]: value }))).toBe(key(chat()));
  });

  it('takes tool_choice "auto" as the default when tools are given', () => {
    expect(key(chat({ tools: [weatherTool], tool_choice: "auto" }))).toBe(key(chat({ tools: [weatherTool] })));
    expect(key(chat({ tools: [weatherTool], tool_choice: "none" }))).not.toBe(key(chat({ tools: [weatherTool] })));
    expect(key(chat({ tool_choice: "auto" }))).not.toBe(key(chat()));
  });

  it("gives a string content the key of one text part", () => {
    const parts = chat({ messages: [{ role: "user", content: [{ type: "text", text: "Hi" }] }] });
    expect(key(parts)).toBe(key(chat({ messages: [{ role: "user", content: "Hi" }] })));
    // Two parts, or a part with more than type and text, are not the same as the joined string.
    const two = chat({
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "H" },
            { type: "text", text: "i" },
          ],
        },
      ],
    });
    expect(key(two)).not.toBe(key(parts));
  });

  it("gives a stop string the key of a one-element array", () => {
    expect(key(chat({ stop: "\n" }))).toBe(key(chat({ stop: ["\n"] })));
  });

  it("takes max_tokens and max_completion_tokens as one field, max_completion_tokens winning", () => {
    expect(key(chat({ max_tokens: 100 }))).toBe(key(chat({ max_completion_tokens: 100 })));
    expect(key(chat({ max_tokens: 5, max_completion_tokens: 100 }))).toBe(key(chat({ max_completion_tokens: 100 })));
    expect(key(chat({ max_tokens: 100, max_completion_tokens: null }))).toBe(key(chat({ max_tokens: 100 })));
    expect(key(chat({ max_tokens: 100 }))).not.toBe(key(chat({ max_tokens: 101 })));
  });

  it("leaves out fields that do not change the answer, and null or undefined ones", () => {
    const plain = key(chat());
    expect(
      key(
        chat({
          model: "something-else",
          user: "u-1",
          metadata: { team: "a" },
          stream: true,
          stream_options: { include_usage: true },
          store: true,
          service_tier: "flex",
          safety_identifier: "s",
          prompt_cache_key: "k",
          prompt_cache_retention: "24h",
          gateway_route: "fast",
          cache_control: { type: "ephemeral" },
          seed: null,
          temperature: undefined,
        }),
      ),
    ).toBe(plain);
    // An assistant message echoed back from a response carries null fields a hand-written one leaves out.
    const echoed = { role: "assistant", content: "4", refusal: null, audio: null };
    expect(key(chat({ messages: [{ role: "user", content: "2+2?" }, echoed] }))).toBe(
      key(
        chat({
          messages: [
            { role: "user", content: "2+2?" },
            { role: "assistant", content: "4" },
          ],
        }),
      ),
    );
  });

  it.each<[string, Body]>([
    [
      "a message's text",
      chat({
        messages: [
          { role: "system", content: "You are terse." },
          { role: "user", content: "What is 2+3?" },
        ],
      }),
    ],
    [
      "the order of messages",
      chat({
        messages: [
          { role: "user", content: "What is 2+2?" },
          { role: "system", content: "You are terse." },
          { role: "assistant", content: "4" },
        ],
      }),
    ],
    [
      "a message's role",
      chat({
        messages: [
          { role: "user", content: "You are terse." },
          { role: "user", content: "What is 2+2?" },
          { role: "assistant", content: "4" },
        ],
      }),
    ],
    [
      "a message's name",
      chat({
        messages: [
          { role: "system", content: "You are terse.", name: "x" },
          { role: "user", content: "What is 2+2?" },
          { role: "assistant", content: "4" },
        ],
      }),
    ],
    ["temperature 0", chat({ temperature: 0 })],
    ["seed", chat({ seed: 1 })],
    ["tools", chat({ tools: [weatherTool] })],
    ["tool_choice", chat({ tools: [weatherTool], tool_choice: "required" })],
    ["response_format json_schema", chat({ response_format: answerSchema })],
    ["response_format json_object", chat({ response_format: { type: "json_object" } })],
    ["n", chat({ n: 2 })],
    ["stop", chat({ stop: "." })],
    ["max_tokens", chat({ max_tokens: 10 })],
    ["logit_bias", chat({ logit_bias: { "1": 5 } })],
    ["reasoning_effort", chat({ reasoning_effort: "low" })],
    ["an unknown field", chat({ verbosity: "low" })],
    ["a field named with the empty string", chat({ "": 1 })],
    ["a __proto__ field", JSON.parse(JSON.stringify(chat()).replace("{", '{"__proto__":{"x":1},')) as Body],
  ])("gives another key when %s changes", (_, changed) => {
    expect(key(changed)).not.toBe(key(chat()));
  });

  it("gives another key for another model argument, whatever the body's model says", () => {
    expect(key(chat(), "openai/gpt-4o-mini")).not.toBe(key(chat()));
    expect(key(chat({ model: "a" }), "fast")).toBe(key(chat({ model: "b" }), "fast"));
  });

  it("keeps nulls below the top level and messages, where a schema's default: null means something", () => {
    const withNull = structuredClone(answerSchema);
    (withNull.json_schema.schema.properties.value as Body).default = null;
    expect(key(chat({ response_format: withNull }))).not.toBe(key(chat({ response_format: answerSchema })));
  });
});

describe("canonicalChat", () => {
  it("is the body with the model argument, defaults and ignored fields left out, and keys sorted", () => {
    const body = deepFreeze(
      chat({
        stream: true,
        temperature: 0.2,
        max_tokens: 50,
        stop: "END",
        messages: [{ content: [{ text: "Hi", type: "text" }], role: "user" }],
        top_p: 1,
      }),
    );
    expect(JSON.stringify(canonicalChat(MODEL, body))).toBe(
      JSON.stringify({
        max_completion_tokens: 50,
        messages: [{ content: "Hi", role: "user" }],
        model: MODEL,
        stop: ["END"],
        temperature: 0.2,
      }),
    );
  });
});

/** A random JSON value of at most `depth` levels. */
function randomJson(random: Random, depth: number): unknown {
  switch (random.int(depth > 0 ? 7 : 5)) {
    case 0:
      return null;
    case 1:
      return random.next() < 0.5;
    case 2:
      return random.int(2000) - 1000 + (random.next() < 0.5 ? 0 : random.next());
    case 3:
    case 4:
      return randomText(random);
    case 5:
      return Array.from({ length: random.int(4) }, () => randomJson(random, depth - 1));
    default:
      return Object.fromEntries(
        Array.from({ length: random.int(5) }, () => [randomText(random), randomJson(random, depth - 1)]),
      );
  }
}

function randomText(random: Random): string {
  return Array.from({ length: 1 + random.int(8) }, () =>
    random.pick(["a", "b", "Z", "_", " ", "é", "😀", '"', "\n", "1"]),
  ).join("");
}

function randomMessage(random: Random): Body {
  const content =
    random.next() < 0.5
      ? randomText(random)
      : [
          { type: "text", text: randomText(random) },
          ...Array.from({ length: random.int(3) }, () => ({
            type: "image_url",
            image_url: { url: `https://x/${randomText(random)}` },
          })),
        ];
  return {
    role: random.pick(["system", "user", "assistant"]),
    content,
    ...(random.next() < 0.3 && { name: randomText(random) }),
  };
}

function randomBody(random: Random): Body {
  const body: Body = { model: "m", messages: Array.from({ length: 1 + random.int(5) }, () => randomMessage(random)) };
  const optional: Record<string, () => unknown> = {
    temperature: () => random.int(3) / 2,
    top_p: () => random.next(),
    seed: () => random.int(1000),
    stop: () => (random.next() < 0.5 ? randomText(random) : [randomText(random), randomText(random)]),
    max_tokens: () => random.int(4000),
    tools: () => [{ type: "function", function: { name: randomText(random), parameters: randomJson(random, 3) } }],
    tool_choice: () => random.pick(["auto", "none", "required"]),
    response_format: () => ({ type: "json_schema", json_schema: { name: "x", schema: randomJson(random, 3) } }),
    user: () => randomText(random),
    [randomText(random)]: () => randomJson(random, 3),
  };
  for (const [field, make] of Object.entries(optional)) if (random.next() < 0.4) body[field] = make();
  return body;
}

describe("chatCacheKey on random bodies", () => {
  it("gives a deep key-shuffled copy the same key, and a copy with one message's text changed another", () => {
    const random = seededRandom(20260101);
    for (let i = 0; i < 500; i++) {
      const body = deepFreeze(randomBody(random));
      const same = key(body);
      expect(key(shuffled(body, random) as Body)).toBe(same);
      // The canonical form is its own canonical form.
      expect(key(canonicalChat(MODEL, body) as Body)).toBe(same);

      const changed = structuredClone(body) as { messages: Body[] };
      const target = changed.messages[random.int(changed.messages.length)]!;
      if (typeof target.content === "string") target.content += "?";
      else (target.content as { text: string }[])[0]!.text += "?";
      expect(key(changed)).not.toBe(same);
    }
  });
});
