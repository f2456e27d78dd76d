import { z } from "@hono/zod-openapi";
import { GatewayError } from "../../errors.ts";
import type { DataSource, SearchRecord, SourceContext } from "../source.ts";

const IMAGES = "https://images-api.nasa.gov";
const apiKey = () => process.env.NASA_API_KEY?.trim() || "DEMO_KEY";
/** A calendar date, YYYY-MM-DD (no 2023-02-30): zod's, which z.iso.date() checks and publishes as its pattern. */
export const DATE = z.regexes.date;
export const ROVERS = ["curiosity", "opportunity", "spirit", "perseverance"] as const;

export async function apod(ctx: SourceContext, date?: string) {
  if (date && !DATE.test(date)) throw new GatewayError(400, "date must be YYYY-MM-DD");
  const a = await ctx.client.get<{
    title: string;
    explanation: string;
    url: string;
    hdurl?: string;
    media_type?: string;
    date: string;
    copyright?: string;
  }>({ path: "/planetary/apod", query: { api_key: apiKey(), date } });
  return {
    title: a.title,
    explanation: a.explanation,
    url: a.url,
    hdurl: a.hdurl ?? null,
    media_type: a.media_type ?? null,
    date: a.date,
    copyright: a.copyright?.trim() ?? null,
  };
}

/** One photo as the Mars rover photos API sends it, from a sol's list or the latest. */
type MarsPhoto = {
  id: number;
  sol: number;
  img_src: string;
  earth_date: string;
  camera?: { name?: string; full_name?: string };
};

export async function marsPhotos(ctx: SourceContext, rover: string, sol?: number, camera?: string) {
  const query: Record<string, string | number | undefined> = { api_key: apiKey(), camera: camera?.toLowerCase() };
  let path = `/mars-photos/api/v1/rovers/${rover}/latest_photos`;
  if (sol !== undefined) {
    path = `/mars-photos/api/v1/rovers/${rover}/photos`;
    query.sol = sol;
  }
  const body = await ctx.client.get<{ photos?: MarsPhoto[]; latest_photos?: MarsPhoto[] }>({ path, query });
  const photos = body.photos ?? body.latest_photos ?? [];
  return {
    rover,
    photos: photos.map((p) => ({
      id: p.id,
      sol: p.sol,
      earth_date: p.earth_date,
      img_src: p.img_src,
      camera: p.camera?.name ?? null,
    })),
  };
}

export async function nearEarthObjects(ctx: SourceContext, start?: string, end?: string) {
  for (const d of [start, end])
    if (d && !DATE.test(d)) throw new GatewayError(400, "start_date and end_date must be YYYY-MM-DD");
  const body = await ctx.client.get<{
    element_count?: number;
    near_earth_objects?: Record<
      string,
      Array<{
        id: string;
        name: string;
        is_potentially_hazardous_asteroid?: boolean;
        estimated_diameter?: { meters?: { estimated_diameter_max?: number } };
        close_approach_data?: Array<{
          close_approach_date?: string;
          miss_distance?: { kilometers?: string };
          relative_velocity?: { kilometers_per_hour?: string };
        }>;
      }>
    >;
  }>({
    path: "/neo/rest/v1/feed",
    query: { api_key: apiKey(), start_date: start, end_date: end },
  });
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

export const nasa: DataSource = {
  name: "nasa",
  description:
    "NASA: image and video library search, Astronomy Picture of the Day, Mars rover photos, near-Earth objects",
  upstream: { name: "nasa", origin: "https://api.nasa.gov", cacheTtlMs: 30 * 60_000 },
  async search(ctx, query, limit) {
    const body = await ctx.client.get<{
      collection?: {
        items?: Array<{
          href?: string;
          data?: Array<{
            nasa_id: string;
            title: string;
            description?: string;
            date_created?: string;
            media_type?: string;
          }>;
          links?: Array<{ href: string }>;
        }>;
      };
    }>({ origin: IMAGES, path: "/search", query: { q: query, page_size: Math.max(limit, 1) } });
    return (body.collection?.items ?? []).slice(0, limit).map((item): SearchRecord => {
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
  },
  get: (ctx, id) =>
    DATE.test(id) ? apod(ctx, id) : Promise.reject(new GatewayError(400, "nasa get takes an APOD date (YYYY-MM-DD)")),
};
