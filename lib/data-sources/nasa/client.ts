import type { UpstreamOptions } from "../../upstream/client.ts";
import type { SourceContext } from "../source.ts";

export const upstream: UpstreamOptions = { name: "nasa", origin: "https://api.nasa.gov", cacheTtlMs: 30 * 60_000 };

const IMAGES = "https://images-api.nasa.gov";
const apiKey = () => process.env.NASA_API_KEY?.trim() || "DEMO_KEY";

export type Apod = {
  title: string;
  explanation: string;
  url: string;
  hdurl?: string;
  media_type?: string;
  date: string;
  copyright?: string;
};
/** One photo as the Mars rover photos API sends it, from a sol's list or the latest. */
export type MarsPhoto = {
  id: number;
  sol: number;
  img_src: string;
  earth_date: string;
  camera?: { name?: string; full_name?: string };
};
export type NeoFeed = {
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
};
/** The image and video library's search answer (Collection+JSON). */
export type ImageSearch = {
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
};

export const apodOf = (ctx: SourceContext, date?: string) =>
  ctx.client.get<Apod>({ path: "/planetary/apod", query: { api_key: apiKey(), date } });

/** A sol's photos, or the latest when no sol is given. rover must be one of ROVERS. */
export const roverPhotos = (ctx: SourceContext, rover: string, sol?: number, camera?: string) =>
  ctx.client.get<{ photos?: MarsPhoto[]; latest_photos?: MarsPhoto[] }>({
    path: `/mars-photos/api/v1/rovers/${rover}/${sol === undefined ? "latest_photos" : "photos"}`,
    query: { api_key: apiKey(), camera, sol },
  });

export const neoFeed = (ctx: SourceContext, start?: string, end?: string) =>
  ctx.client.get<NeoFeed>({
    path: "/neo/rest/v1/feed",
    query: { api_key: apiKey(), start_date: start, end_date: end },
  });

export const searchImages = (ctx: SourceContext, q: string, limit: number) =>
  ctx.client.get<ImageSearch>({ origin: IMAGES, path: "/search", query: { q, page_size: Math.max(limit, 1) } });
