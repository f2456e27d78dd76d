/** @type {import('next').NextConfig} */
const nextConfig = {
  // Native, WASM or worker-thread packages run from node_modules as they are, not bundled.
  serverExternalPackages: [
    "@electric-sql/pglite",
    "pglite-prisma-adapter",
    "@prisma/client",
    "@prisma/adapter-pg",
    "pg",
    "ioredis",
    "pino",
    "prom-client",
    "pdfkit",
    "sharp",
    "usearch",
    "unpdf",
    "espeak-ng",
    "piscina",
    "@citation-js/core",
    "@citation-js/plugin-csl",
    "@citation-js/plugin-bibtex",
    "@citation-js/name",
  ],
  poweredByHeader: false,
  // The portal's /docs reads the guides (Markdown files of the checkout) when a page is asked for.
  outputFileTracingIncludes: {
    "/docs": ["./README.md", "./SECURITY.md", "./docs/**/*.md"],
    "/docs/guides/[slug]": ["./README.md", "./SECURITY.md", "./docs/**/*.md"],
  },
  // `npm run typecheck` (tsc over the whole project, the same tsconfig) is the type check, in CI before
  // any build; the build repeating it cost every build ~50 s (CI, and `npm start` after a pull).
  typescript: { ignoreBuildErrors: true },
  experimental: {
    // A clean checkout in CI builds once and is thrown away: writing Turbopack's cache there is ~30 s of
    // a core for nothing. Elsewhere it makes the rebuild after a pull faster.
    turbopackFileSystemCacheForBuild: !process.env.CI,
  },
  // Metadata in the <head> for every client, not streamed in after the body: the portal's metadata is
  // static, so streaming gains nothing, and a page caught before its streamed <title> arrives has none
  // (axe flagged "document-title" on the keys page right after a rotation).
  htmlLimitedBots: /.*/,
};

export default nextConfig;
