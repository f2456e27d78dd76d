import { defineArea } from "../../gateway/http/area.ts";
import { registerAccountRoutes } from "./routes.ts";

export default defineArea({
  name: "account",
  scope: "account",
  paths: ["/v1/key", "/v1/usage"],
  routes: [registerAccountRoutes],
});
