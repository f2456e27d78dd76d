import { GatewayError } from "../../errors.ts";
import type { DataSource, SearchRecord, SourceContext } from "../source.ts";

const headers = (): Record<string, string> => {
  const token = process.env.GITHUB_TOKEN?.trim();
  return {
    accept: "application/vnd.github+json",
    "x-github-api-version": "2022-11-28",
    ...(token ? { authorization: `Bearer ${token}` } : {}),
  };
};
/**
 * An owner or repository name: 1-100 of A-Z a-z 0-9 _ . - but not "." or "..", which in the path
 * would walk up to other GitHub endpoints (/user) with our token. Written without a lookahead so
 * that a JSON Schema consumer (and a test-data generator) reads it as the gateway does: the first
 * character is not a dot, or the second is not, or a third character follows two dots.
 */
export const GITHUB_NAME =
  /^(?:[A-Za-z0-9_-][A-Za-z0-9_.-]{0,99}|\.[A-Za-z0-9_-][A-Za-z0-9_.-]{0,98}|\.\.[A-Za-z0-9_.-]{1,98})$/;

type Repo = {
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

const repoView = (r: Repo) => ({
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

export async function repository(ctx: SourceContext, owner: string, repo: string) {
  if (!GITHUB_NAME.test(owner) || !GITHUB_NAME.test(repo))
    throw new GatewayError(400, "owner and repo must be GitHub names");
  return repoView(await ctx.client.get<Repo>({ path: `/repos/${owner}/${repo}`, headers: headers() }));
}

export const github: DataSource = {
  name: "github",
  description: "GitHub: repository search and repository details (GITHUB_TOKEN raises the rate limit)",
  upstream: { name: "github", origin: "https://api.github.com", cacheTtlMs: 10 * 60_000 },
  async search(ctx, query, limit) {
    const body = await ctx.client.get<{ items?: Repo[] }>({
      path: "/search/repositories",
      query: { q: query, per_page: Math.min(limit, 100) },
      headers: headers(),
    });
    return (body.items ?? []).map((r): SearchRecord => ({
      id: r.full_name,
      title: r.full_name,
      url: r.html_url,
      summary: r.description,
      authors: [r.owner.login],
      published: r.created_at,
      source: "github",
      extra: { stars: r.stargazers_count, language: r.language },
    }));
  },
  async get(ctx, id) {
    const [owner, repo, ...rest] = id.split("/");
    if (!owner || !repo || rest.length) throw new GatewayError(400, "github get takes owner/repo");
    return repository(ctx, owner, repo);
  },
};
