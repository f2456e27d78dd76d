/**
 * The origin (scheme, host, port) of a third-party service: its real one, or `UPSTREAM_<NAME>_URL`
 * when set (mirrors, and the fake servers tests point adapters at). Paths stay the service's own.
 */
export function upstreamOrigin(name: string, realOrigin: string, env: NodeJS.ProcessEnv = process.env): string {
  const override = env[`UPSTREAM_${name.toUpperCase()}_URL`]?.trim();
  return (override || realOrigin).replace(/\/+$/, "");
}
