import { z } from "@hono/zod-openapi";
import { GatewayError } from "../../errors.ts";
import type { DataSource, SourceContext } from "../source.ts";
import { apodOf, neoFeed, roverPhotos, searchImages, upstream } from "./client.ts";
import { apodView, imageRecords, neoView, photosView } from "./normalise.ts";

/** A calendar date, YYYY-MM-DD (no 2023-02-30): zod's, which z.iso.date() checks and publishes as its pattern. */
export const DATE = z.regexes.date;
export const ROVERS = ["curiosity", "opportunity", "spirit", "perseverance"] as const;

export async function apod(ctx: SourceContext, date?: string) {
  if (date && !DATE.test(date)) throw new GatewayError(400, "date must be YYYY-MM-DD");
  return apodView(await apodOf(ctx, date));
}

export async function marsPhotos(ctx: SourceContext, rover: string, sol?: number, camera?: string) {
  return photosView(rover, await roverPhotos(ctx, rover, sol, camera?.toLowerCase()));
}

export async function nearEarthObjects(ctx: SourceContext, start?: string, end?: string) {
  for (const d of [start, end])
    if (d && !DATE.test(d)) throw new GatewayError(400, "start_date and end_date must be YYYY-MM-DD");
  return neoView(await neoFeed(ctx, start, end));
}

export const nasa: DataSource = {
  name: "nasa",
  description:
    "NASA: image and video library search, Astronomy Picture of the Day, Mars rover photos, near-Earth objects",
  upstream,
  search: async (ctx, query, limit) => imageRecords(await searchImages(ctx, query, limit)).slice(0, limit),
  get: (ctx, id) =>
    DATE.test(id) ? apod(ctx, id) : Promise.reject(new GatewayError(400, "nasa get takes an APOD date (YYYY-MM-DD)")),
};
