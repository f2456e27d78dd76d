/** The OpenAPI document's top: its info block and servers. */
export type DocumentConfig = {
  info: { title: string; version: string; description?: string };
  servers?: { url: string }[];
};

/** What the gateway tells routes about itself (the status area describes it). */
export type GatewayInfo = {
  /** The OpenAPI 3.1 document of every mounted route. */
  openApiDocument(config: DocumentConfig): unknown;
  /** Distinct method + path pairs in the route table. */
  endpointCount(): number;
};
