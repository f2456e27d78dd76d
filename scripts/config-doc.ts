import { readFileSync, writeFileSync } from "node:fs";
import { CONFIG_GUIDE, writeConfigTables } from "../lib/config-docs-render.ts";

// Writes docs/configuration.md's tables from lib/config-docs.ts and envSchema's defaults (npm run config:doc),
// between the guide's `<!-- generated:config:<topic> -->` markers; the prose around them is kept as it is.
const before = readFileSync(CONFIG_GUIDE, "utf8");
const after = writeConfigTables(before);
if (after !== before) writeFileSync(CONFIG_GUIDE, after);
console.log(after === before ? `${CONFIG_GUIDE} is up to date` : `${CONFIG_GUIDE} written`);
