import { Hono } from "hono";
import { startFakeServer, type FakeSource } from "./server.ts";

/** api.nasa.gov (APOD, Mars photos, NeoWs) and the image library's /search on one origin. */
export function fakeNasaApp(): Hono {
  const app = new Hono();
  app.use(async (c, next) => {
    if (c.req.path !== "/search" && c.req.query("api_key") !== "DEMO_KEY")
      return c.json({ error: { code: "API_KEY_INVALID" } }, 403);
    await next();
  });
  app.get("/planetary/apod", (c) =>
    c.json({
      date: c.req.query("date") ?? "2026-11-25",
      title: "Pillars of Creation",
      explanation: "Towers of gas and dust.",
      url: "https://apod.example/pillars.jpg",
      hdurl: "https://apod.example/pillars_hd.jpg",
      media_type: "image",
      copyright: "\nNASA\n",
    }),
  );
  const photo = (sol: number) => ({
    id: 102693,
    sol,
    camera: { id: 20, name: "FHAZ", full_name: "Front Hazard Avoidance Camera" },
    img_src: "https://mars.example/fhaz.jpg",
    earth_date: "2015-05-30",
    rover: { name: "Curiosity" },
  });
  app.get("/mars-photos/api/v1/rovers/:rover/latest_photos", (c) => c.json({ latest_photos: [photo(4100)] }));
  app.get("/mars-photos/api/v1/rovers/:rover/photos", (c) => c.json({ photos: [photo(Number(c.req.query("sol")))] }));
  app.get("/neo/rest/v1/feed", (c) =>
    c.json({
      element_count: 1,
      near_earth_objects: {
        "2026-11-25": [
          {
            id: "3542519",
            name: "(2010 PK9)",
            is_potentially_hazardous_asteroid: true,
            estimated_diameter: { meters: { estimated_diameter_max: 250.5 } },
            close_approach_data: [{ close_approach_date: "2026-11-25", miss_distance: { kilometers: "7451234.12" } }],
          },
        ],
      },
    }),
  );
  app.get("/search", (c) =>
    c.json({
      collection: {
        items: [
          {
            href: "https://images.example/a.json",
            data: [
              {
                nasa_id: "PIA001",
                title: "Saturn",
                description: "Rings",
                date_created: "2004-07-01T00:00:00Z",
                media_type: "image",
              },
            ],
            links: [{ href: "https://images.example/a.jpg" }],
          },
        ],
      },
    }),
  );
  return app;
}

export const startFakeNasa = (): Promise<FakeSource> => startFakeServer(fakeNasaApp());
