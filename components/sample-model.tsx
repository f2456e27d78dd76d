"use client";

import { createContext, useContext, type ReactNode } from "react";

const SampleModel = createContext("xai/grok-4-fast");

/**
 * The model the portal's code samples name (`provider/model`), chosen on the server from the
 * providers it has configured, for client components that show a first call (a new key's panel).
 */
export function SampleModelProvider({ model, children }: { model: string; children: ReactNode }) {
  return <SampleModel value={model}>{children}</SampleModel>;
}

export function useSampleModel(): string {
  return useContext(SampleModel);
}
