import type { UpstreamOptions } from "../../upstream/client.ts";
import type { SourceContext } from "../source.ts";

export const upstream: UpstreamOptions = { name: "github", origin: "https://api.github.com", cacheTtlMs: 10 * 60_000 };

const headers = (): Record<string, string> => {
  const token = process.env.GITHUB_TOKEN?.trim();
  return {
    accept: "application/vnd.github+json",
    "x-github-api-version": "2022-11-28",
    ...(token ? { authorization: `Bearer ${token}` } : {}),
  };
};

/** A repository as GitHub's REST API sends one (the fields we read). */
export type Repo = {
  full_name: string;
  html_url: string;
  description: string | null;
  stargazers_count: number;
  forks_count: number;
  open_issues_count: number;
  language: string | null;
  license?: { spdx_id?: string } | null;
  topics?: string[];
  default_branch: string;
  pushed_at: string;
  created_at: string;
  owner: { login: string };
  archived?: boolean;
};

export const searchRepositories = (ctx: SourceContext, q: string, limit: number) =>
  ctx.client.get<{ items?: Repo[] }>({
    path: "/search/repositories",
    query: { q, per_page: Math.min(limit, 100) },
    headers: headers(),
  });

/** owner and repo must already be checked GitHub names (GITHUB_NAME): they go into the path as they are. */
export const getRepository = (ctx: SourceContext, owner: string, repo: string) =>
  ctx.client.get<Repo>({ path: `/repos/${owner}/${repo}`, headers: headers() });
