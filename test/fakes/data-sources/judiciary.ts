import { Hono } from "hono";
import { startFakeServer, type FakeSource } from "./server.ts";

/** CourtListener REST v4: opinion search. */
export function fakeJudiciaryApp(): Hono {
  const app = new Hono();
  app.get("/api/rest/v4/search/", (c) =>
    c.json({
      count: 1,
      results: [
        {
          caseName: "Marbury v. Madison",
          court: "Supreme Court of the United States",
          dateFiled: "1803-02-24",
          absolute_url: "/opinion/84759/marbury-v-madison/",
          cluster_id: 84759,
          docketNumber: "",
          citation: ["5 U.S. 137"],
          opinions: [
            { snippet: "It is emphatically the province and duty of the judicial department to say what the law is." },
          ],
        },
      ],
    }),
  );
  return app;
}

export const startFakeJudiciary = (): Promise<FakeSource> => startFakeServer(fakeJudiciaryApp());
