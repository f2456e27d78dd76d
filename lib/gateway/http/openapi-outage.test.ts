import { describe, expect, it } from "vitest";
import { DATABASE_OUTAGE_RESPONSE, withDatabaseOutage } from "./openapi-outage.ts";

describe("withDatabaseOutage", () => {
  it("declares the database-down 503 on keyed operations only, keeping an operation's own 503", () => {
    const own = { description: "provider not configured" };
    type Doc = {
      paths: Record<string, Record<string, { "x-gateway-auth": string; responses: Record<string, unknown> }>>;
    };
    const doc: Doc = withDatabaseOutage<Doc>({
      paths: {
        "/v1/key": { get: { "x-gateway-auth": "key", responses: { 200: {} } } },
        "/v1/llm/chat": { post: { "x-gateway-auth": "optional", responses: { 200: {}, 503: own } } },
        "/health": { get: { "x-gateway-auth": "none", responses: { 200: {} } } },
      },
    });
    expect(doc.paths["/v1/key"]!.get!.responses["503"]).toBe(DATABASE_OUTAGE_RESPONSE);
    expect(doc.paths["/v1/llm/chat"]!.post!.responses["503"]).toBe(own);
    expect(doc.paths["/health"]!.get!.responses).not.toHaveProperty("503");
  });
});
