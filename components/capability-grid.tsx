const CAPABILITIES = [
  {
    title: "Language models",
    body: "Chat with streaming, vision, embeddings, images, speech, transcription and batch across providers.",
    path: "/v1/llm",
  },
  {
    title: "Research agents",
    body: "Multi-agent research tasks that run in the background, with polling, streams and cancellation.",
    path: "/v1/orchestrate",
  },
  {
    title: "Public data",
    body: "Seventeen sources — papers, books, weather, finance, space, courts — behind one search shape.",
    path: "/v1/data",
  },
  {
    title: "Reference data",
    body: "AAC pictograms, clinical conditions, an English corpus, world languages, etymology and datasets.",
    path: "/v1/aac",
  },
  {
    title: "Utilities",
    body: "Images, PDF text, documents, format conversion, citations, keywords and text-to-speech.",
    path: "/v1/utils",
  },
  {
    title: "Fetch and screenshots",
    body: "A server-side HTTPS proxy and website screenshots that refuse private networks.",
    path: "/v1/proxy",
  },
];

export function CapabilityGrid() {
  return (
    <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
      {CAPABILITIES.map((c) => (
        <li key={c.title} className="rounded-xl border border-slate-200 p-5 dark:border-slate-800">
          <h3 className="font-semibold">{c.title}</h3>
          <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">{c.body}</p>
          <code className="mt-3 inline-block text-xs text-indigo-700 dark:text-indigo-300">{c.path}</code>
        </li>
      ))}
    </ul>
  );
}
