import { describe, expect, it } from "vitest";
import type { ResponseInputItem, ResponseObject } from "../../llm/wire/types.ts";
import { resolveReferences } from "./references.ts";

const call = {
  type: "function_call",
  id: "fc_abc_1",
  call_id: "call_1",
  name: "f",
  arguments: "{}",
  status: "completed",
};
const turn = {
  items: [],
  response: { id: "resp_abc", output: [{ type: "message", id: "msg_abc_0" }, call] } as unknown as ResponseObject,
};

describe("resolveReferences", () => {
  it("replaces item references with the stored output items they name, looking each response up once", async () => {
    const looked: string[] = [];
    const items = [
      { type: "item_reference", id: "fc_abc_1" },
      { type: "function_call_output", call_id: "call_1", output: "42" },
    ] as ResponseInputItem[];
    const out = await resolveReferences(items, async (id) => (looked.push(id), id === "resp_abc" ? turn : undefined));
    expect(out).toEqual([call, items[1]]);
    expect(looked).toEqual(["resp_abc"]);
  });

  it("refuses an id that names nothing this key stored", async () => {
    const refs = (id: string) => [{ type: "item_reference", id }] as ResponseInputItem[];
    await expect(resolveReferences(refs("fc_other_1"), async () => undefined)).rejects.toMatchObject({ status: 400 });
    await expect(resolveReferences(refs("fc_abc_7"), async () => turn)).rejects.toMatchObject({ status: 400 });
    await expect(resolveReferences(refs("nonsense"), async () => turn)).rejects.toMatchObject({ status: 400 });
  });
});
