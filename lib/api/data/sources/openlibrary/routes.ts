import { z } from "@hono/zod-openapi";
import { gatewayRoute } from "../../../../gateway/http/route.ts";
import { jsonResponse, keyedErrors } from "../../../../gateway/http/schemas.ts";
import { route, type Handler, type RouteDef } from "../../../../gateway/pipeline/route.ts";
import { SearchResult, searchAnswer, sourceContext, tags } from "../../schemas.ts";
import { upstreamErrors } from "../../../../data-sources/error-responses.ts";
import { SearchQuery } from "../../search-query.ts";
import { bookByIsbn, openlibrary } from "../../../../data-sources/openlibrary/index.ts";

const openlibraryIsbn = gatewayRoute("key", {
  method: "get",
  path: "/v1/data/openlibrary/isbn/{isbn}",
  summary: "A book by ISBN-10 or ISBN-13",
  tags,
  request: { params: z.object({ isbn: z.string().min(10).max(17) }) },
  responses: {
    200: jsonResponse(
      z.object({ authors: z.array(z.string()), title: z.string(), year: z.number().int().nullable() }).passthrough(),
      "The book",
    ),
    ...keyedErrors,
    ...upstreamErrors,
  },
});

const handleOpenlibraryIsbn: Handler<typeof openlibraryIsbn> = (c, { params }) =>
  bookByIsbn(sourceContext(c, openlibrary), params.isbn);

const openlibrarySearch = gatewayRoute("key", {
  method: "get",
  path: "/v1/data/openlibrary/search",
  summary: "Search books (default 10 results)",
  tags,
  request: { query: SearchQuery },
  responses: { 200: jsonResponse(SearchResult, "Books"), ...keyedErrors, ...upstreamErrors },
});

const handleOpenlibrarySearch: Handler<typeof openlibrarySearch> = (c, { query }) =>
  searchAnswer(c, openlibrary, query, 10);

export const openlibraryRoutes: RouteDef[] = [
  route(openlibraryIsbn, handleOpenlibraryIsbn),
  route(openlibrarySearch, handleOpenlibrarySearch),
];
