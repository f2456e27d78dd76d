import { afterEach, describe, expect, it } from "vitest";
import { startFakeOllama, type FakeOllama } from "../../test/fakes/ollama.ts";
import { freePort } from "../../test/support/next-build.ts";
import { runnerModels } from "./runner-models.ts";

describe("the operator's runner's installed models", () => {
  const saved = process.env.UPSTREAM_OLLAMA_URL;
  let runner: FakeOllama | undefined;
  afterEach(async () => {
    process.env.UPSTREAM_OLLAMA_URL = saved;
    await runner?.close();
  });

  it("reads them once for a while, and lists none for a runner that cannot be reached", async () => {
    runner = await startFakeOllama(["qwen2.5:7b"]);
    process.env.UPSTREAM_OLLAMA_URL = runner.url;
    const now = Date.now();
    expect((await runnerModels(now)).map((m) => m.name)).toEqual(["qwen2.5:7b"]);
    runner.installed.add("llama3.2:latest");
    // Within the keeping time the list is the one read; after it, the runner is asked again.
    expect((await runnerModels(now + 1_000)).map((m) => m.name)).toEqual(["qwen2.5:7b"]);
    expect((await runnerModels(now + 20_000)).map((m) => m.name)).toEqual(["qwen2.5:7b", "llama3.2:latest"]);
    expect(runner.calls.filter((c) => c === "GET /api/tags")).toHaveLength(2);

    process.env.UPSTREAM_OLLAMA_URL = `http://127.0.0.1:${await freePort()}`;
    expect(await runnerModels(now + 20_000)).toEqual([]);
  });
});
