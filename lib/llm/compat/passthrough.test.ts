import { describe, expect, it } from "vitest";
import { GatewayError } from "../../errors.ts";
import {
  anthropicFeatureUse,
  messagesFeatures,
  refuseUnlisted,
  serviceTierFeature,
  serviceTierUse,
  stem,
} from "./passthrough.ts";

describe("pass-through features", () => {
  it("names a versioned tool or beta by its stem", () => {
    expect(stem("web_search_20250305")).toBe("web_search");
    expect(stem("code-execution-2025-05-22")).toBe("code-execution");
    expect(stem("claude-code-20250219")).toBe("claude-code");
    expect(stem("tools-2024")).toBe("tools");
    expect(stem("context-1m-2025-08-07")).toBe("context-1m");
    expect(stem("mcp_toolset")).toBe("mcp_toolset");
  });

  it("finds a Messages request's server tools and billed betas, not its custom and client tools or free betas", () => {
    const tools = [
      { name: "weather" },
      { type: "custom", name: "lookup" },
      { type: "bash_20250124", name: "bash" },
      { type: "text_editor_20250728", name: "str_replace_based_edit_tool" },
      { type: "web_search_20250305", name: "web_search" },
      { type: "code_execution_20250825", name: "code_execution" },
    ];
    expect(messagesFeatures(tools, undefined)).toEqual(["web_search", "code_execution"]);
    expect(
      messagesFeatures([], "interleaved-thinking-2025-05-14,  files-api-2025-04-14 ,mcp-client-2025-04-04"),
    ).toEqual(["anthropic-beta:files-api", "anthropic-beta:mcp-client"]);
    expect(messagesFeatures(undefined, "")).toEqual([]);
    expect(() => messagesFeatures([], "a b")).toThrow(GatewayError);
    expect(() => messagesFeatures([], Array.from({ length: 33 }, (_, i) => `beta-${i}`).join(","))).toThrow(
      /more than 32 betas/,
    );
  });

  it("treats auto and default as the standard tier, any other as a feature", () => {
    expect(serviceTierFeature(undefined)).toEqual([]);
    expect(serviceTierFeature(null)).toEqual([]);
    expect(serviceTierFeature("auto")).toEqual([]);
    expect(serviceTierFeature("default")).toEqual([]);
    expect(serviceTierFeature("priority")).toEqual(["service_tier:priority"]);
  });

  it("refuses what is not listed, naming each feature and the setting once", () => {
    expect(() => refuseUnlisted([], new Set())).not.toThrow();
    expect(() => refuseUnlisted(["web_search"], new Set(["web_search"]))).not.toThrow();
    let refusal: unknown;
    try {
      refuseUnlisted(["web_search", "code_execution", "web_search"], new Set(["code_execution_x"]));
    } catch (err) {
      refusal = err;
    }
    expect(refusal).toBeInstanceOf(GatewayError);
    expect((refusal as GatewayError).status).toBe(400);
    expect((refusal as GatewayError).message).toBe(
      "web_search, code_execution cost beyond tokens and are not enabled on this gateway: its operator allows such a feature by listing it in LLM_PASSTHROUGH_FEATURES",
    );
  });

  it("meters what the answer says was used: server tools' counts, a tier above standard", () => {
    expect(
      anthropicFeatureUse({
        server_tool_use: { web_search_requests: 3, web_fetch_requests: 0, bogus: 2, "x-y_requests": 1 },
        service_tier: "priority",
      }),
    ).toEqual({ web_search: 3, "service_tier:priority": 1 });
    expect(anthropicFeatureUse({ server_tool_use: null, service_tier: "standard" })).toBeUndefined();
    expect(anthropicFeatureUse(undefined)).toBeUndefined();
    expect(anthropicFeatureUse({ server_tool_use: { web_search_requests: 1.5 } })).toBeUndefined();
    expect(serviceTierUse("default")).toBeUndefined();
    expect(serviceTierUse("scale")).toEqual({ "service_tier:scale": 1 });
    expect(serviceTierUse("Not A Tier")).toBeUndefined();
  });
});
