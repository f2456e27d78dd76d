import { defineArea } from "../../../gateway/http/area.ts";
import { adminKeyRoutes } from "./routes.ts";

/**
 * Keys managed by API, as Unkey does: a key with the keys:admin scope creates, lists, changes, rotates and
 * revokes keys (every key's for an operator's key without a team, its team's for a team admin's), never
 * giving one more rights than its own. Under the "account" scope, which every key reaches: the handlers
 * ask for keys:admin themselves, so the refusal says what is missing.
 */
export default defineArea({
  name: "admin-keys",
  scope: "account",
  paths: ["/v1/admin/keys/*"],
  routes: adminKeyRoutes,
});
