import { GatewayError } from "../../errors.ts";
import type { DataSource, SourceContext } from "../source.ts";
import { getRepository, searchRepositories, upstream } from "./client.ts";
import { repoRecord, repoView } from "./normalise.ts";

/**
 * An owner or repository name: 1-100 of A-Z a-z 0-9 _ . - but not "." or "..", which in the path
 * would walk up to other GitHub endpoints (/user) with our token. Written without a lookahead so
 * that a JSON Schema consumer (and a test-data generator) reads it as the gateway does: the first
 * character is not a dot, or the second is not, or a third character follows two dots.
 */
export const GITHUB_NAME =
  /^(?:[A-Za-z0-9_-][A-Za-z0-9_.-]{0,99}|\.[A-Za-z0-9_-][A-Za-z0-9_.-]{0,98}|\.\.[A-Za-z0-9_.-]{1,98})$/;

export async function repository(ctx: SourceContext, owner: string, repo: string) {
  if (!GITHUB_NAME.test(owner) || !GITHUB_NAME.test(repo))
    throw new GatewayError(400, "owner and repo must be GitHub names");
  return repoView(await getRepository(ctx, owner, repo));
}

export const github: DataSource = {
  name: "github",
  description: "GitHub: repository search and repository details (GITHUB_TOKEN raises the rate limit)",
  upstream,
  async search(ctx, query, limit) {
    return ((await searchRepositories(ctx, query, limit)).items ?? []).map(repoRecord);
  },
  async get(ctx, id) {
    const [owner, repo, ...rest] = id.split("/");
    if (!owner || !repo || rest.length) throw new GatewayError(400, "github get takes owner/repo");
    return repository(ctx, owner, repo);
  },
};
