import { Hono } from "hono";
import { startFakeServer, type FakeSource } from "./server.ts";

/** Open Library's search.json, /isbn/{isbn}.json (an edition) and /authors/{id}.json. */
export function fakeOpenLibraryApp(): Hono {
  const app = new Hono();
  app.get("/search.json", (c) =>
    c.json({
      numFound: 1,
      docs: [
        {
          key: "/works/OL45883W",
          title: "The Lord of the Rings",
          author_name: ["J.R.R. Tolkien"],
          first_publish_year: 1954,
          isbn: ["9780261102385"],
          edition_count: 120,
          cover_i: 9255566,
        },
      ],
    }),
  );
  app.get("/isbn/:file", (c) => {
    if (c.req.param("file") !== "9780261102385.json") return c.json({ error: "notfound", key: "/isbn" }, 404);
    return c.json({
      title: "The Lord of the Rings",
      authors: [{ key: "/authors/OL26320A" }],
      publish_date: "July 1991",
      publishers: ["HarperCollins"],
      number_of_pages: 1137,
      works: [{ key: "/works/OL45883W" }],
    });
  });
  app.get("/authors/:file", (c) => c.json({ name: "J.R.R. Tolkien", key: "/authors/OL26320A" }));
  app.get("/works/:file", (c) => c.json({ title: "The Lord of the Rings", key: "/works/OL45883W" }));
  return app;
}

export const startFakeOpenLibrary = (): Promise<FakeSource> => startFakeServer(fakeOpenLibraryApp());
