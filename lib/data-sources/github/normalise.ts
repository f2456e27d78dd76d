import type { SearchRecord } from "../source.ts";
import type { Repo } from "./client.ts";

/** A repository as the repo route and the get answer it. */
export const repoView = (r: Repo) => ({
  full_name: r.full_name,
  url: r.html_url,
  description: r.description,
  stars: r.stargazers_count,
  forks: r.forks_count,
  open_issues: r.open_issues_count,
  language: r.language,
  license: r.license?.spdx_id ?? null,
  topics: r.topics ?? [],
  default_branch: r.default_branch,
  archived: r.archived ?? false,
  created_at: r.created_at,
  pushed_at: r.pushed_at,
});

/** A repository search hit as a record. */
export const repoRecord = (r: Repo): SearchRecord => ({
  id: r.full_name,
  title: r.full_name,
  url: r.html_url,
  summary: r.description,
  authors: [r.owner.login],
  published: r.created_at,
  source: "github",
  extra: { stars: r.stargazers_count, language: r.language },
});
