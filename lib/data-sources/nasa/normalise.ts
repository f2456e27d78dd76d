import type { SearchRecord } from "../source.ts";
import type { Apod, ImageSearch, MarsPhoto, NeoFeed } from "./client.ts";

export const apodView = (a: Apod) => ({
  title: a.title,
  explanation: a.explanation,
  url: a.url,
  hdurl: a.hdurl ?? null,
  media_type: a.media_type ?? null,
  date: a.date,
  copyright: a.copyright?.trim() ?? null,
});

/** A rover's photos, from a sol's list or the latest, each with its camera's short name. */
export const photosView = (rover: string, body: { photos?: MarsPhoto[]; latest_photos?: MarsPhoto[] }) => ({
  rover,
  photos: (body.photos ?? body.latest_photos ?? []).map((p) => ({
    id: p.id,
    sol: p.sol,
    earth_date: p.earth_date,
    img_src: p.img_src,
    camera: p.camera?.name ?? null,
  })),
});

/** The feed's objects of every day in one list, with the first close approach of each. */
export function neoView(body: NeoFeed) {
  const objects = Object.values(body.near_earth_objects ?? {}).flat();
  return {
    count: body.element_count ?? objects.length,
    objects: objects.map((o) => ({
      id: o.id,
      name: o.name,
      hazardous: o.is_potentially_hazardous_asteroid ?? false,
      diameter_m: o.estimated_diameter?.meters?.estimated_diameter_max ?? null,
      approach_date: o.close_approach_data?.[0]?.close_approach_date ?? null,
      miss_distance_km: Number(o.close_approach_data?.[0]?.miss_distance?.kilometers ?? NaN) || null,
    })),
  };
}

/** The library's items as records, their first link (a preview) as the URL. */
export const imageRecords = (body: ImageSearch): SearchRecord[] =>
  (body.collection?.items ?? []).map((item) => {
    const d = item.data?.[0];
    return {
      id: d?.nasa_id ?? "",
      title: d?.title ?? "",
      url: item.links?.[0]?.href ?? null,
      summary: d?.description ?? null,
      published: d?.date_created ?? null,
      source: "nasa",
      extra: { media_type: d?.media_type ?? null },
    };
  });
