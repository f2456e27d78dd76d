import { Hono } from "hono";
import { startFakeServer, type FakeSource } from "./server.ts";

/** GitHub REST: /search/repositories and /repos/{owner}/{repo}. */
export function fakeGithubApp(): Hono {
  const app = new Hono();
  const repo = {
    full_name: "honojs/hono",
    html_url: "https://github.com/honojs/hono",
    description: "Web framework built on Web Standards",
    stargazers_count: 25000,
    forks_count: 700,
    open_issues_count: 300,
    language: "TypeScript",
    license: { spdx_id: "MIT" },
    topics: ["web"],
    default_branch: "main",
    pushed_at: "2026-11-20T00:00:00Z",
    created_at: "2021-12-14T00:00:00Z",
    owner: { login: "honojs" },
    archived: false,
  };
  app.get("/search/repositories", (c) => c.json({ total_count: 1, items: [repo] }));
  app.get("/repos/:owner/:repo", (c) =>
    c.req.param("owner") === "honojs" && c.req.param("repo") === "hono"
      ? c.json(repo)
      : c.json({ message: "Not Found" }, 404),
  );
  // The token owner's account: what a path-traversal through a repository id would read.
  app.get("/user", (c) => c.json({ login: "operator", email: "ops@example.com", plan: { name: "pro" } }));
  return app;
}

export const startFakeGithub = (): Promise<FakeSource> => startFakeServer(fakeGithubApp());
