import { describe, expect, it } from "vitest";
import { repoRecord, repoView } from "./normalise.ts";

const repo = {
  full_name: "honojs/hono",
  html_url: "https://github.com/honojs/hono",
  description: "Web framework built on Web Standards",
  stargazers_count: 20000,
  forks_count: 600,
  open_issues_count: 250,
  language: "TypeScript",
  license: { spdx_id: "MIT" },
  topics: ["web", "framework"],
  default_branch: "main",
  pushed_at: "2026-11-30T00:00:00Z",
  created_at: "2021-12-14T00:00:00Z",
  owner: { login: "honojs" },
};

describe("github", () => {
  it("shows a repository by our names, with no license, topics or archived flag read as null, [] and false", () => {
    expect(repoView(repo)).toEqual({
      full_name: "honojs/hono",
      url: "https://github.com/honojs/hono",
      description: "Web framework built on Web Standards",
      stars: 20000,
      forks: 600,
      open_issues: 250,
      language: "TypeScript",
      license: "MIT",
      topics: ["web", "framework"],
      default_branch: "main",
      archived: false,
      created_at: "2021-12-14T00:00:00Z",
      pushed_at: "2026-11-30T00:00:00Z",
    });
    expect(repoView({ ...repo, license: null, topics: undefined })).toMatchObject({ license: null, topics: [] });
  });

  it("makes a search hit a record by its full name, its owner the author", () => {
    expect(repoRecord(repo)).toEqual({
      id: "honojs/hono",
      title: "honojs/hono",
      url: "https://github.com/honojs/hono",
      summary: "Web framework built on Web Standards",
      authors: ["honojs"],
      published: "2021-12-14T00:00:00Z",
      source: "github",
      extra: { stars: 20000, language: "TypeScript" },
    });
  });
});
