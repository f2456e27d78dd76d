import { describe, expect, it } from "vitest";
import { assertRoomForHost } from "./ollama.ts";

describe("assertRoomForHost", () => {
  const registered = ["http://a:11434", "http://b:11434"];

  it("lets a key register below the cap, and register a host it has again at the cap", () => {
    expect(() => assertRoomForHost(registered, "http://c:11434", 3)).not.toThrow();
    expect(() => assertRoomForHost(registered, "http://a:11434", 2)).not.toThrow();
  });

  it("refuses one more at the cap with 409 naming it", () => {
    expect(() => assertRoomForHost(registered, "http://c:11434", 2)).toThrow(
      expect.objectContaining({
        status: 409,
        message: expect.stringMatching(/the most allowed \(2, OLLAMA_HOSTS_PER_KEY\)/),
      }),
    );
  });
});
