// A JSON import, not a file read at run time: esbuild puts the version into the compiled server (dist/), which
// then needs no package.json beside it, and tsx and Vitest read the file once, with the module.
import packageJson from "../package.json" with { type: "json" };

/** The gateway's version, package.json's: what /health and /openapi.json report. */
export const GATEWAY_VERSION: string = packageJson.version;
