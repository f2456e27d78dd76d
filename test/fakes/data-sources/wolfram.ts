import { Hono } from "hono";
import { startFakeServer, type FakeSource } from "./server.ts";

/** Wolfram|Alpha Full Results API v2 (JSON output). */
export function fakeWolframApp(): Hono {
  const app = new Hono();
  app.get("/v2/query", (c) =>
    c.json({
      queryresult: {
        success: true,
        error: false,
        pods: [
          { title: "Input interpretation", id: "Input", subpods: [{ plaintext: "integrate x^2 dx" }] },
          {
            title: "Indefinite integral",
            id: "IndefiniteIntegral",
            primary: true,
            subpods: [{ plaintext: "∫x^2 dx = x^3/3 + constant" }],
          },
        ],
      },
    }),
  );
  return app;
}

export const startFakeWolfram = (): Promise<FakeSource> => startFakeServer(fakeWolframApp());
