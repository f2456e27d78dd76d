import { Hono } from "hono";
import { startFakeServer, type FakeSource } from "./server.ts";

/** The Census Data API: /data/{year}/acs/acs5 answering a JSON table, for each geography the gateway asks for. */
export function fakeCensusApp(): Hono {
  const app = new Hono();
  app.get("/data/:year/acs/acs5", (c) => {
    const forParam = c.req.query("for") ?? "";
    if (forParam.startsWith("state"))
      return c.json([
        ["NAME", "B01003_001E", "state"],
        ["California", "39356104", "06"],
        ["Alabama", "5028092", "01"],
      ]);
    if (forParam.startsWith("county"))
      return c.json([
        ["NAME", "B01003_001E", "state", "county"],
        ["Los Angeles County, California", "9936690", "06", "037"],
      ]);
    // Tracts are asked for within a state, as the real API requires.
    if (forParam.startsWith("tract") && c.req.query("in")?.startsWith("state:"))
      return c.json([
        ["NAME", "B01003_001E", "state", "county", "tract"],
        ["Census Tract 1011.10; Los Angeles County; California", "3853", "06", "037", "101110"],
      ]);
    if (forParam.startsWith("zip code tabulation area"))
      return c.json([
        ["NAME", "B01003_001E", "zip code tabulation area"],
        ["ZCTA5 90210", "19627", "90210"],
      ]);
    return c.json({ error: "unknown geography" }, 400);
  });
  return app;
}

export const startFakeCensus = (): Promise<FakeSource> => startFakeServer(fakeCensusApp());
