// Writes the USGS earthquake snapshot the datavis proxy serves when the live feed was never reached:
// the last 24 hours of the real USGS all-week feed shipped in vega-datasets (February 2018, public
// domain), re-titled as the all-day feed it stands in for. Run with `node scripts/build-datavis-snapshots.mjs`.
import fs from "node:fs";
import path from "node:path";

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const week = JSON.parse(
  fs.readFileSync(path.join(ROOT, "node_modules", "vega-datasets", "data", "earthquakes.json"), "utf8"),
);
const generated = week.metadata.generated;
const features = week.features.filter((f) => f.properties.time >= generated - 24 * 3600 * 1000);
const day = {
  type: "FeatureCollection",
  metadata: {
    ...week.metadata,
    url: "https://earthquake.usgs.gov/earthquakes/feed/v1.0/summary/all_day.geojson",
    title: "USGS All Earthquakes, Past Day",
    count: features.length,
  },
  features,
  bbox: week.bbox,
};
fs.writeFileSync(
  path.join(ROOT, "lib", "api", "datavis", "data", "snapshots", "earthquake.json"),
  `${JSON.stringify(day)}\n`,
);
console.log(`${features.length} earthquakes in the snapshot`);
