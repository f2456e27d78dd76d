import { writeFileSync } from "node:fs";
import { AREAS } from "../lib/app.ts";
import { routesDocument } from "../lib/gateway/pipeline/routes-doc.ts";

// Writes docs/routes.md from the route table (npm run routes:doc); prettier leaves it as written, for the test to compare.
writeFileSync("docs/routes.md", routesDocument(AREAS));
