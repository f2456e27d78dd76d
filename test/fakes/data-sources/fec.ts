import { Hono } from "hono";
import { startFakeServer, type FakeSource } from "./server.ts";

/** OpenFEC: candidate search and one candidate by id. */
export function fakeFecApp(): Hono {
  const app = new Hono();
  app.get("/v1/candidates/search/", (c) =>
    c.json({
      results: [
        {
          candidate_id: "P80001571",
          name: "DOE, JANE",
          party_full: "INDEPENDENT",
          office_full: "President",
          state: "US",
          election_years: [2024],
        },
      ],
      pagination: { count: 1 },
    }),
  );
  app.get("/v1/candidate/:id/", (c) =>
    c.json({ results: c.req.param("id") === "P80001571" ? [{ candidate_id: "P80001571", name: "DOE, JANE" }] : [] }),
  );
  return app;
}

export const startFakeFec = (): Promise<FakeSource> => startFakeServer(fakeFecApp());
