import { defineArea } from "../../gateway/http/area.ts";
import { adminKeyRoutes } from "./keys/routes.ts";
import { adminUsageRoutes } from "./usage/routes.ts";

/**
 * Keys and usage administered by API, as Unkey does: a key with the keys:admin scope creates, lists,
 * changes, rotates and revokes keys and reads their usage (every key's for an operator's key without a
 * team, its team's for a team admin's), never giving a key more rights than its own. Under the "account"
 * scope, which every key reaches: the handlers ask for keys:admin themselves, so the refusal says what is
 * missing.
 */
export default defineArea({
  name: "admin",
  scope: "account",
  paths: ["/v1/admin/*"],
  routes: [...adminKeyRoutes, ...adminUsageRoutes],
});
