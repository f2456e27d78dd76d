import { describe, expect, it } from "vitest";
import { startTestGateway } from "./support/gateway.ts";
import { useGateway } from "./support/use-gateway.ts";

type Json = Record<string, unknown>;
type Swatch = {
  hex: string;
  rgb: { r: number; g: number; b: number };
  hsl: { h: number; s: number; l: number };
  name: string;
  name_hex: string;
};
type Palette = { scheme: string; base: string; colors: Swatch[] };

const GENERATORS = ["insults", "antijokes", "dadjokes", "colors", "compliments"];

describe("generators over HTTP", () => {
  // Well above the default 100 a minute: one test walks a whole bag and a half.
  const t = useGateway({ key: { minute: 10_000 } });
  const { get } = t;
  const body = async (path: string, status = 200) => {
    const res = await get(path);
    expect(res.status, `${path} → ${res.status}`).toBe(status);
    return (await res.json()) as Json;
  };
  const expectError = async (path: string, status: number, message?: RegExp) => {
    const res = await get(path);
    expect(res.status, path).toBe(status);
    const json = (await res.json()) as { error: unknown };
    expect(typeof json.error).toBe("string");
    if (message) expect(json.error).toMatch(message);
  };
  const expectHexRgbHsl = (c: Swatch | Json) => {
    const { hex, rgb } = c as Swatch;
    expect(hex).toMatch(/^#[0-9a-f]{6}$/);
    expect(parseInt(hex.slice(1), 16)).toBe((rgb.r << 16) | (rgb.g << 8) | rgb.b);
    expect(c).toHaveProperty("hsl.h");
  };

  describe("GET /v1/create/", () => {
    it("lists every generator with description, count and endpoints, without a key", async () => {
      const res = await get("/v1/create/", false);
      expect(res.status).toBe(200);
      expect(res.headers.get("X-RateLimit-Limit")).toBeNull();
      const { generators } = (await res.json()) as {
        generators: Record<
          string,
          { description: string; count: number; endpoints: string[]; supports_multiple: boolean }
        >;
      };
      expect(Object.keys(generators).sort()).toEqual([...GENERATORS].sort());
      for (const name of GENERATORS) {
        expect(generators[name]!.description.length).toBeGreaterThan(10);
        expect(generators[name]!.count).toBeGreaterThanOrEqual(150);
        expect(generators[name]!.endpoints).toContain(`/v1/create/${name}/random`);
      }
      expect(generators.dadjokes!.supports_multiple).toBe(false);
      expect(generators.colors!.count).toBeGreaterThan(30_000);
    });

    it("is also served at the Form B base /v1/generators(/), key optional", async () => {
      const create = await (await get("/v1/create/", false)).json();
      for (const path of ["/v1/generators/", "/v1/generators"]) {
        const res = await get(path, false);
        expect(res.status, path).toBe(200);
        expect(await res.json()).toEqual(create);
      }
      const keyed = await get("/v1/generators/");
      expect(keyed.headers.get("X-RateLimit-Limit")).toMatch(/^\d+$/);
      expect((await t.gw.request("/v1/generators/", { headers: { "X-API-Key": "sk_wrong" } })).status).toBe(401);
    });

    it("also answers without the trailing slash, and with a key it reports rate-limit headers", async () => {
      expect((await get("/v1/create", false)).status).toBe(200);
      const res = await get("/v1/create/");
      expect(res.status).toBe(200);
      expect(res.headers.get("X-RateLimit-Limit")).toMatch(/^\d+$/);
    });
  });

  describe("keys", () => {
    it.each([
      "/v1/create/insults/random",
      "/v1/create/insults/multiple/3",
      "/v1/generators/dadjokes/random",
      "/v1/generators/colors/multiple/2",
    ])("%s answers 401 without a key", async (path) => {
      const res = await get(path, false);
      expect(res.status).toBe(401);
      expect(typeof ((await res.json()) as Json).error).toBe("string");
    });

    it("reports X-RateLimit-* on keyed responses, errors included", async () => {
      for (const path of [
        "/v1/create/compliments/random",
        "/v1/generators/insults/multiple/2",
        "/v1/create/nope/random",
      ]) {
        const res = await get(path);
        expect(res.headers.get("X-RateLimit-Limit"), path).toBe("10000");
        expect(res.headers.get("X-RateLimit-Remaining"), path).toMatch(/^\d+$/);
        expect(Number(res.headers.get("X-RateLimit-Reset"))).toBeGreaterThan(Date.now() / 1000 - 1);
      }
    });
  });

  describe("GET /v1/create/{generator}/random", () => {
    it("gives text items for insults and compliments", async () => {
      for (const name of ["insults", "compliments"]) {
        const json = await body(`/v1/create/${name}/random`);
        expect(json.generator).toBe(name);
        expect(json.item).toEqual({ id: expect.any(Number), text: expect.stringMatching(/\S/) });
      }
    });

    it("gives {setup, punchline} for dadjokes and antijokes", async () => {
      for (const name of ["dadjokes", "antijokes"]) {
        const { item } = (await body(`/v1/create/${name}/random`)) as { item: Json };
        expect(item).toEqual({
          id: expect.any(Number),
          setup: expect.stringMatching(/\S/),
          punchline: expect.stringMatching(/\S/),
          text: expect.any(String),
        });
        expect(item.text).toBe(`${item.setup} ${item.punchline}`);
      }
    });

    it("gives one named colour with hex, rgb and hsl for colors", async () => {
      const { item } = (await body("/v1/create/colors/random")) as { item: Json };
      expect(Object.keys(item).sort()).toEqual(["hex", "hsl", "name", "rgb"]);
      expectHexRgbHsl(item);
    });

    it("answers 404 {error} for an unknown generator", async () => {
      await expectError("/v1/create/limericks/random", 404, /unknown generator 'limericks'/);
    });

    it("returns N distinct items for N consecutive calls up to the bag size, and never the same twice in a row after", async () => {
      // A second gateway in the same process: its bag starts fresh although the first gateway's
      // insults bag is mid-cycle, which is what "a bag per gateway instance" means.
      const fresh = await startTestGateway();
      try {
        const freshKey = (await fresh.key({ minute: 10_000 })).key;
        const size = ((await body("/v1/create/")) as { generators: { insults: { count: number } } }).generators.insults
          .count;
        const ids: number[] = [];
        for (let i = 0; i < size + 40; i++) {
          const res = await fresh.request("/v1/create/insults/random", { headers: { "X-API-Key": freshKey } });
          ids.push(((await res.json()) as { item: { id: number } }).item.id);
        }
        expect(new Set(ids.slice(0, size)).size).toBe(size);
        expect(new Set(ids.slice(size)).size).toBe(40);
        ids.slice(1).forEach((id, i) => expect(id, `call ${i + 2}`).not.toBe(ids[i]));
      } finally {
        await fresh.close();
      }
    });
  });

  describe("GET /v1/create/{generator}/multiple/{count}", () => {
    it.each(["insults", "antijokes", "compliments"])("gives %s as `count` distinct items", async (name) => {
      const json = (await body(`/v1/create/${name}/multiple/20`)) as {
        generator: string;
        count: number;
        items: { id: number }[];
      };
      expect(json.generator).toBe(name);
      expect(json.count).toBe(20);
      expect(json.items).toHaveLength(20);
      expect(new Set(json.items.map((i) => i.id)).size).toBe(20);
    });

    it("gives colors as `count` distinct named colours", async () => {
      const { items } = (await body("/v1/create/colors/multiple/7")) as { items: Json[] };
      expect(items).toHaveLength(7);
      expect(new Set(items.map((c) => c.hex)).size).toBe(7);
      items.forEach(expectHexRgbHsl);
    });

    it("accepts the bounds 1 and 20", async () => {
      expect(((await body("/v1/create/compliments/multiple/1")) as { items: unknown[] }).items).toHaveLength(1);
    });

    it.each(["0", "21", "x", "1.5", "-3", "1e1"])("answers 400 {error} for count %s", async (count) => {
      await expectError(`/v1/create/insults/multiple/${count}`, 400, /count/);
    });

    it("answers 400 for dadjokes, which do not support multiple here", async () => {
      await expectError("/v1/create/dadjokes/multiple/3", 400, /dadjokes does not support multiple/);
    });

    it("answers 404 for an unknown generator, whatever the count", async () => {
      await expectError("/v1/create/limericks/multiple/3", 404, /unknown generator/);
      await expectError("/v1/create/limericks/multiple/x", 404);
    });
  });

  describe("Form B: /v1/generators/…", () => {
    it("random gives the same item shapes for text generators", async () => {
      const { item } = (await body("/v1/generators/dadjokes/random")) as { item: Json };
      expect(item).toMatchObject({ setup: expect.any(String), punchline: expect.any(String) });
      const insult = (await body("/v1/generators/insults/random")) as { generator: string; item: Json };
      expect(insult.generator).toBe("insults");
      expect(insult.item.text).toEqual(expect.any(String));
    });

    it("random gives colors as one palette of 5 colours by default, each with a nearest name", async () => {
      const { item } = (await body("/v1/generators/colors/random")) as { item: Palette };
      expect(item.colors).toHaveLength(5);
      expect(["complementary", "analogous", "triadic", "split-complementary", "tetradic", "monochromatic"]).toContain(
        item.scheme,
      );
      for (const c of item.colors) {
        expectHexRgbHsl(c);
        expect(c.name.length).toBeGreaterThan(0);
        expect(c.name_hex).toMatch(/^#[0-9a-f]{6}$/);
      }
    });

    it("multiple gives dadjokes too, up to 50 distinct", async () => {
      const json = (await body("/v1/generators/dadjokes/multiple/50")) as { count: number; items: { id: number }[] };
      expect(json.count).toBe(50);
      expect(new Set(json.items.map((i) => i.id)).size).toBe(50);
    });

    it("multiple gives colors as `count` palettes of `size` colours in the asked scheme", async () => {
      const { items } = (await body("/v1/generators/colors/multiple/3?scheme=complementary&size=2")) as {
        items: Palette[];
      };
      expect(items).toHaveLength(3);
      expect(new Set(items.map((p) => p.base)).size).toBe(3);
      for (const palette of items) {
        expect(palette.scheme).toBe("complementary");
        expect(palette.colors).toHaveLength(2);
        const [a, b] = palette.colors;
        const gap = (((b!.hsl.h - a!.hsl.h) % 360) + 360) % 360;
        expect(Math.abs(gap - 180)).toBeLessThanOrEqual(2);
      }
      const big = (await body("/v1/generators/colors/random?scheme=monochromatic&size=10")) as { item: Palette };
      expect(big.item.colors).toHaveLength(10);
    });

    it.each([
      ["/v1/generators/insults/multiple/51", 400],
      ["/v1/generators/insults/multiple/0", 400],
      ["/v1/generators/insults/multiple/x", 400],
      ["/v1/generators/colors/random?scheme=plaid", 400],
      ["/v1/generators/colors/random?size=1", 400],
      ["/v1/generators/colors/multiple/2?size=11", 400],
      ["/v1/generators/limericks/random", 404],
      ["/v1/generators/limericks/multiple/3", 404],
    ])("%s answers %i {error}", async (path, status) => {
      await expectError(path, status);
    });
  });

  it("reads a blank scheme or size (?size=) as absent: a random scheme, 5 colours", async () => {
    const { item } = (await body("/v1/generators/colors/random?scheme=&size=")) as { item: Palette };
    expect(item.colors).toHaveLength(5);
    expect(["complementary", "analogous", "triadic", "split-complementary", "tetradic", "monochromatic"]).toContain(
      item.scheme,
    );
  });

  it("quotes an over-long generator or count back cut short, not whole", async () => {
    for (const [path, status] of [
      [`/v1/create/${"g".repeat(5000)}/random`, 404],
      [`/v1/generators/insults/multiple/${"9".repeat(5000)}`, 400],
    ] as const) {
      const res = await get(path);
      expect(res.status).toBe(status);
      const { error } = (await res.json()) as { error: string };
      expect(error.length).toBeLessThan(200);
    }
  });

  it("is in the OpenAPI document with a response schema for each route", async () => {
    const doc = (await (await t.gw.request("/openapi.json")).json()) as {
      paths: Record<string, Record<string, { responses: Record<string, { content?: unknown }> }>>;
    };
    for (const path of [
      "/v1/create",
      "/v1/generators",
      "/v1/create/{generator}/random",
      "/v1/create/{generator}/multiple/{count}",
      "/v1/generators/{generator}/random",
      "/v1/generators/{generator}/multiple/{count}",
    ]) {
      expect(doc.paths[path]?.get?.responses["200"]?.content, path).toBeDefined();
    }
  });
});
