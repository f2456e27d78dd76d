import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { API_DESCRIPTION } from "../lib/api/status/openapi.ts";
import { createApp } from "../lib/app.ts";
import { SCHEMA_FILE, schemaSource } from "../lib/client/schema-source.ts";
import { loadConfig } from "../lib/config.ts";
import { createRuntime } from "../lib/gateway/runtime/runtime.ts";

/**
 * Writes lib/client/schema.d.ts (npm run openapi:types): the types of the document GET /openapi.json
 * serves, made in this process by the same gateway `npm start` runs (every area mounted, on a
 * throwaway embedded database) without listening on a port.
 */
async function servedDocument(): Promise<unknown> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "openapi-types-"));
  try {
    const rt = await createRuntime(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "silent" }));
    try {
      const res = await createApp(rt).fetch(new Request("http://localhost/openapi.json"));
      if (!res.ok) throw new Error(`GET /openapi.json answered ${res.status}`);
      const document = (await res.json()) as { info?: { title?: string } };
      if (document.info?.title !== API_DESCRIPTION.title)
        throw new Error("/openapi.json is not the gateway's document");
      return document;
    } finally {
      await rt.close();
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const text = await schemaSource(await servedDocument());
fs.writeFileSync(SCHEMA_FILE, text);
console.log(`wrote ${SCHEMA_FILE} (${text.split("\n").length} lines)`);
