import { describe, expect, it } from "vitest";
import { apodView, imageRecords, neoView, photosView } from "./normalise.ts";

describe("nasa", () => {
  it("shows an APOD with absent fields as null and the copyright trimmed", () => {
    const apod = {
      title: "M31",
      explanation: "A galaxy.",
      url: "https://apod.example/m31.jpg",
      date: "2026-11-01",
      copyright: "\nA. Astronomer\n",
    };
    expect(apodView(apod)).toEqual({ ...apod, hdurl: null, media_type: null, copyright: "A. Astronomer" });
  });

  it("reads a sol's photos and the latest photos alike", () => {
    const photo = {
      id: 1,
      sol: 4000,
      img_src: "https://mars.example/1.jpg",
      earth_date: "2023-11-01",
      camera: { name: "FHAZ", full_name: "Front Hazard Avoidance Camera" },
    };
    const shown = { id: 1, sol: 4000, earth_date: "2023-11-01", img_src: "https://mars.example/1.jpg", camera: "FHAZ" };
    expect(photosView("curiosity", { photos: [photo] })).toEqual({ rover: "curiosity", photos: [shown] });
    expect(photosView("curiosity", { latest_photos: [photo] }).photos).toEqual([shown]);
    expect(photosView("spirit", {}).photos).toEqual([]);
  });

  it("flattens the NEO feed's days into one list, its miss distance a number", () => {
    const body = {
      element_count: 2,
      near_earth_objects: {
        "2026-11-01": [
          {
            id: "3542519",
            name: "(2010 PK9)",
            is_potentially_hazardous_asteroid: true,
            estimated_diameter: { meters: { estimated_diameter_max: 250.5 } },
            close_approach_data: [{ close_approach_date: "2026-11-01", miss_distance: { kilometers: "7000000.5" } }],
          },
        ],
        "2026-11-02": [{ id: "2", name: "(2020 AB)" }],
      },
    };
    expect(neoView(body)).toEqual({
      count: 2,
      objects: [
        {
          id: "3542519",
          name: "(2010 PK9)",
          hazardous: true,
          diameter_m: 250.5,
          approach_date: "2026-11-01",
          miss_distance_km: 7000000.5,
        },
        { id: "2", name: "(2020 AB)", hazardous: false, diameter_m: null, approach_date: null, miss_distance_km: null },
      ],
    });
  });

  it("makes the image library's items records", () => {
    const body = {
      collection: {
        items: [
          {
            href: "https://images-assets.nasa.gov/image/PIA1/collection.json",
            data: [
              {
                nasa_id: "PIA1",
                title: "Saturn",
                description: "Rings.",
                date_created: "2004-07-01T00:00:00Z",
                media_type: "image",
              },
            ],
            links: [{ href: "https://images-assets.nasa.gov/image/PIA1/PIA1~thumb.jpg" }],
          },
        ],
      },
    };
    expect(imageRecords(body)).toEqual([
      {
        id: "PIA1",
        title: "Saturn",
        url: "https://images-assets.nasa.gov/image/PIA1/PIA1~thumb.jpg",
        summary: "Rings.",
        published: "2004-07-01T00:00:00Z",
        source: "nasa",
        extra: { media_type: "image" },
      },
    ]);
  });
});
