import { tagSlug } from "../docs/openapi-view.ts";

/** The areas the home page presents, each with the OpenAPI tag whose section of /docs describes it. */
export const CAPABILITIES = [
  {
    title: "Language models",
    body: "Chat with streaming, vision, embeddings, images, speech, transcription and batch across providers.",
    path: "/v1/llm",
    tag: "LLM",
  },
  {
    title: "Research agents",
    body: "Multi-agent research tasks that run in the background, with polling, streams and cancellation.",
    path: "/v1/orchestrate",
    tag: "Orchestration",
  },
  {
    title: "Public data",
    body: "Seventeen sources — papers, books, weather, finance, space, courts — behind one search shape.",
    path: "/v1/data",
    tag: "Data sources",
  },
  {
    title: "Reference data",
    body: "AAC pictograms, clinical conditions, an English corpus, world languages, etymology and datasets.",
    path: "/v1/aac",
    tag: "AAC",
  },
  {
    title: "Utilities",
    body: "Images, PDF text, documents, format conversion, citations, keywords and text-to-speech.",
    path: "/v1/utils",
    tag: "Utilities",
  },
  {
    title: "Fetch and screenshots",
    body: "A server-side HTTPS proxy and website screenshots that refuse private networks.",
    path: "/v1/proxy",
    tag: "Proxy",
  },
] as const;

/** The link to a tag's section of the API reference (`#tag/<slug>`). */
export function docsTagHref(tag: string): string {
  return `/docs#tag/${tagSlug(tag)}`;
}
