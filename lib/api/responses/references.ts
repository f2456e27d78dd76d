import { GatewayError } from "../../errors.ts";
import type { ResponseInputItem } from "../../llm/wire/types.ts";
import type { StoredTurn } from "./store.ts";
import { responseOfItem } from "../../llm/wire/responses/index.ts";

type Lookup = (responseId: string) => Promise<StoredTurn | undefined>;

/**
 * Input with each `item_reference` replaced by the output item it names, from the key's stored
 * responses: clients that trust the server to keep what it answered (the AI SDK, by default) send
 * earlier items by id only. An id this key cannot read is a 400 naming it.
 */
export async function resolveReferences(items: ResponseInputItem[], lookup: Lookup): Promise<ResponseInputItem[]> {
  if (!items.some((i) => i.type === "item_reference")) return items;
  const turns = new Map<string, Promise<StoredTurn | undefined>>();
  return Promise.all(
    items.map(async (item) => {
      if (item.type !== "item_reference") return item;
      const responseId = responseOfItem(item.id);
      if (responseId && !turns.has(responseId)) turns.set(responseId, lookup(responseId));
      const turn = responseId ? await turns.get(responseId) : undefined;
      const found = turn?.response.output.find((o) => o.id === item.id);
      if (!found)
        throw new GatewayError(
          400,
          `input: item_reference '${item.id}' names no item of a stored response of this key`,
        );
      return found as ResponseInputItem;
    }),
  );
}
