"use client";

import { ApiReferenceReact } from "@scalar/api-reference-react";
import "@scalar/api-reference-react/style.css";
import { useMemo } from "react";

/**
 * Scalar's reference over this server's /openapi.json. The visitor's key reaches it only through
 * props (page memory): persistAuth stays false so Scalar writes no credential to localStorage, and
 * nothing here sets a cookie. Fonts and telemetry are off: the page loads nothing from other hosts.
 * "Test request" sends from this page straight to this server (no proxyUrl, so never through Scalar's
 * proxy); the "Open API Client" button is hidden: it opens Scalar's hosted client, which cannot reach a
 * server on localhost or a private network.
 */
export default function ScalarReference({ apiKey }: { apiKey: string }) {
  const configuration = useMemo(
    () => ({
      url: "/openapi.json",
      servers: [{ url: window.location.origin, description: "This server" }],
      persistAuth: false,
      telemetry: false,
      agent: { disabled: true },
      withDefaultFonts: false,
      hideClientButton: true,
      showDeveloperTools: "never" as const,
      documentDownloadType: "json" as const,
      authentication: { preferredSecurityScheme: "apiKeyHeader", securitySchemes: { apiKeyHeader: { value: apiKey } } },
    }),
    [apiKey],
  );
  return <ApiReferenceReact configuration={configuration} />;
}
