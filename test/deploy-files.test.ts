import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse, parseAllDocuments } from "yaml";
import { readMigrations } from "../lib/db/migrate.ts";
import { tracingSettings } from "../lib/observability/settings.ts";
import { databaseBackends, freshPostgres } from "./support/backends.ts";
// @ts-expect-error a plain .mjs script without type declarations
import { ENTRY_POINTS } from "../scripts/build-server.mjs";

/**
 * deploy/ is for operators and is not run here (no container engine): this reads
 * the Dockerfile, the compose file and the Kubernetes manifests and holds them to what the project
 * really offers: every variable they give the gateway is one docs/configuration.md documents,
 * every command runs a file the build produces, and the pieces the deployment needs are all there.
 */
const IMAGE = "unified-gateway:latest";
const read = (file: string) => fs.readFileSync(path.join("deploy", file), "utf8");
const k8sFiles = fs.readdirSync("deploy/k8s").filter((f) => f.endsWith(".yaml"));

type Container = {
  image?: string;
  command?: string[];
  env?: Array<{ name: string }>;
  envFrom?: Array<{ secretRef?: { name: string } }>;
};
type Manifest = {
  kind: string;
  metadata: { name: string };
  spec?: { template?: { spec: { containers: Container[] } }; scaleTargetRef?: { name: string } };
  stringData?: Record<string, string>;
};
type ComposeService = {
  image?: string;
  command?: string[];
  environment?: Record<string, string>;
  deploy?: { replicas?: number };
  profiles?: string[];
  volumes?: string[];
  ports?: string[];
  depends_on?: string[] | Record<string, unknown>;
};
/** The parts of an OpenTelemetry Collector configuration the tracing profile relies on. */
type CollectorConfig = {
  receivers: Record<string, { protocols?: { http?: { endpoint?: string } } } | null>;
  processors: Record<string, unknown>;
  exporters: Record<string, { endpoint?: string; tls?: { insecure?: boolean } } | null>;
  service: { pipelines: Record<string, { receivers: string[]; processors?: string[]; exporters: string[] }> };
};

const manifests = k8sFiles.flatMap((f) => parseAllDocuments(read(`k8s/${f}`)).map((d) => d.toJS() as Manifest));
const compose = parse(read("docker-compose.yml"), { merge: true }) as { services: Record<string, ComposeService> };
const gatewayServices = Object.entries(compose.services).filter(([, s]) => s.image === IMAGE);
const gatewayContainers = manifests.flatMap(
  (m) => m.spec?.template?.spec.containers.filter((c) => c.image === IMAGE) ?? [],
);
const dockerfile = read("Dockerfile");

/**
 * The variables docs/configuration.md documents: the first column of its tables (one per topic, each row
 * starting with a backticked name); `UPSTREAM_<NAME>_URL` stands for a family.
 */
function documented(): (name: string) => boolean {
  const guide = fs.readFileSync("docs/configuration.md", "utf8");
  const names = guide
    .split("\n")
    .filter((line) => line.startsWith("| `"))
    .flatMap((line) => [...line.split("|")[1]!.matchAll(/`([A-Z][A-Z0-9_<>]*)`/g)].map((m) => m[1]!));
  const patterns = names.map((n) => new RegExp(`^${n.replace(/<[A-Z]+>/g, "[A-Z0-9_]+")}$`));
  return (name) => patterns.some((p) => p.test(name));
}

/** Every variable the files give a gateway process: Dockerfile ENV, compose environment, pod env and Secrets they read. */
function variablesSet(): Array<{ where: string; name: string }> {
  const env = dockerfile
    .replace(/\\\n/g, " ")
    .split("\n")
    .filter((l) => l.startsWith("ENV "))
    .flatMap((l) => [...l.matchAll(/([A-Z][A-Z0-9_]*)=/g)].map((m) => ({ where: "Dockerfile", name: m[1]! })));
  const fromCompose = gatewayServices.flatMap(([service, s]) =>
    Object.keys(s.environment ?? {}).map((name) => ({ where: `docker-compose.yml ${service}`, name })),
  );
  const secretNames = new Set(gatewayContainers.flatMap((c) => c.envFrom?.map((e) => e.secretRef?.name) ?? []));
  const fromPods = gatewayContainers.flatMap((c) =>
    (c.env ?? []).map(({ name }) => ({ where: "k8s container", name })),
  );
  const fromSecrets = manifests
    .filter((m) => m.kind === "Secret" && secretNames.has(m.metadata.name))
    .flatMap((m) => Object.keys(m.stringData ?? {}).map((name) => ({ where: `k8s Secret ${m.metadata.name}`, name })));
  return [...env, ...fromCompose, ...fromPods, ...fromSecrets];
}

describe("deploy/", () => {
  it("sets only variables docs/configuration.md documents", () => {
    const isDocumented = documented();
    const set = variablesSet();
    expect(set.length).toBeGreaterThan(10);
    expect(set.filter((v) => !isDocumented(v.name))).toEqual([]);
  });

  it("runs only entries the build produces (dist/<entry>.mjs)", () => {
    const cmd = /^CMD (\[.*\])$/m.exec(dockerfile);
    const commands = [
      JSON.parse(cmd![1]!) as string[],
      ...gatewayServices.flatMap(([, s]) => (s.command ? [s.command] : [])),
      ...gatewayContainers.flatMap((c) => (c.command ? [c.command] : [])),
    ];
    const entries = commands.map((c) => c.find((arg) => arg.startsWith("dist/")));
    const built = Object.keys(ENTRY_POINTS as Record<string, string>).map((e) => `dist/${e}.mjs`);
    expect(new Set(entries)).toEqual(new Set(["dist/server.mjs", "dist/worker.mjs", "dist/migrate.mjs"]));
    for (const entry of entries) expect(built).toContain(entry);
  });

  it("has every piece: a multi-stage image, compose with two web processes, and the Kubernetes set", () => {
    expect(dockerfile.match(/^FROM /gm)!.length).toBeGreaterThanOrEqual(2);
    const byDefault = Object.entries(compose.services).filter(([, s]) => !s.profiles);
    expect(byDefault.map(([name]) => name).sort()).toEqual(["migrate", "postgres", "redis", "web", "worker"]);
    expect(compose.services.web!.deploy?.replicas).toBe(2);
    const kinds = manifests.map((m) => `${m.kind} ${m.metadata.name}`).sort();
    expect(kinds).toEqual([
      "Deployment gateway-web",
      "Deployment gateway-worker",
      "HorizontalPodAutoscaler gateway-web",
      "Job gateway-migrate",
      "Secret gateway-secrets",
      "Service gateway",
    ]);
    expect(manifests.find((m) => m.kind === "HorizontalPodAutoscaler")!.spec!.scaleTargetRef!.name).toBe("gateway-web");
  });

  it("builds and runs on a supported Node.js LTS (20 reached end of life on 2026-04-30)", () => {
    const bases = [...dockerfile.matchAll(/^FROM node:(\d+)-/gm)].map((m) => Number(m[1]));
    expect(bases.length).toBeGreaterThanOrEqual(2);
    for (const major of bases) expect([22, 24]).toContain(major);
  });
});

describe("deploy/'s tracing profile (docs/tracing.md)", () => {
  const inProfile = Object.entries(compose.services).filter(([, s]) => s.profiles?.includes("tracing"));
  const collector = compose.services["otel-collector"]!;
  const config = parse(read("otel-collector.yaml")) as CollectorConfig;

  it("adds a collector and Jaeger only under --profile tracing, and the default start traces nothing", () => {
    expect(inProfile.map(([name]) => name).sort()).toEqual(["jaeger", "otel-collector"]);
    expect(collector.image).toMatch(/^otel\/opentelemetry-collector-contrib:\d+\.\d+\.\d+$/);
    expect(compose.services.jaeger!.image).toMatch(/^jaegertracing\/jaeger:2\.\d+\.\d+$/);
    expect(compose.services.jaeger!.ports).toContain("16686:16686");
    // A default service waiting for one of them would not start without the profile.
    for (const [, s] of Object.entries(compose.services).filter(([, s]) => !s.profiles)) {
      const needs = Array.isArray(s.depends_on) ? s.depends_on : Object.keys(s.depends_on ?? {});
      expect(needs).not.toContain("otel-collector");
      expect(needs).not.toContain("jaeger");
    }
    for (const [, s] of gatewayServices)
      expect(s.environment!.OTEL_EXPORTER_OTLP_ENDPOINT).toBe("${OTEL_EXPORTER_OTLP_ENDPOINT:-}");
    // What compose then gives the gateway when the variable is not set: tracing off.
    expect(tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: "" })).toBeUndefined();
  });

  it("gives the collector deploy/otel-collector.yaml: OTLP/HTTP on 4318 in, batched, traces out to Jaeger and the log", () => {
    expect(collector.volumes).toContain("./otel-collector.yaml:/etc/otelcol-contrib/config.yaml:ro");
    expect(config.receivers.otlp?.protocols?.http?.endpoint).toBe("0.0.0.0:4318");
    const traces = config.service.pipelines.traces!;
    expect(traces.receivers).toEqual(["otlp"]);
    expect(traces.processors).toEqual(["batch"]);
    const toJaeger = traces.exporters.filter((e) => /^otlp_grpc(\/|$)/.test(e));
    expect(toJaeger).toHaveLength(1);
    expect(config.exporters[toJaeger[0]!]).toEqual({ endpoint: "jaeger:4317", tls: { insecure: true } });
    expect(traces.exporters.some((e) => /^debug(\/|$)/.test(e))).toBe(true);
    // The same endpoint gets the gateway's OTLP metrics: without a pipeline for them the receiver answers 404.
    expect(config.service.pipelines.metrics?.receivers).toEqual(["otlp"]);
    // The collector refuses to start on a pipeline naming a component its sections do not define.
    for (const pipeline of Object.values(config.service.pipelines)) {
      for (const name of pipeline.receivers) expect(config.receivers).toHaveProperty([name]);
      for (const name of pipeline.processors ?? []) expect(config.processors).toHaveProperty([name]);
      for (const name of pipeline.exporters) expect(config.exporters).toHaveProperty([name]);
    }
  });

  it("is reached by the endpoint docs/tracing.md tells the gateway to use", () => {
    const doc = fs.readFileSync("docs/tracing.md", "utf8");
    const given =
      /OTEL_EXPORTER_OTLP_ENDPOINT=(http:\/\/otel-collector:\d+)[\s\\]+docker compose [^\n]*--profile tracing/.exec(
        doc,
      );
    expect(given, "docs/tracing.md's compose command").not.toBeNull();
    const url = new URL(tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: given![1] })!.tracesUrl);
    expect(url.port).toBe(config.receivers.otlp!.protocols!.http!.endpoint!.split(":")[1]);
    expect(url.pathname).toBe("/v1/traces");
  });
});

describe.runIf(databaseBackends.includes("postgres"))("the migration step (npm run migrate, dist/migrate.mjs)", () => {
  it("applies the pending migrations, then none, and exits 0 each time", { timeout: 60_000 }, async () => {
    const database = await freshPostgres();
    const migrate = () =>
      spawnSync(process.execPath, ["--import", "tsx", "scripts/migrate.ts"], {
        env: { ...process.env, DATABASE_URL: database.url },
        encoding: "utf8",
      });
    try {
      const first = migrate();
      expect(first.status, first.stderr).toBe(0);
      expect(JSON.parse(first.stdout).applied).toEqual(readMigrations().map((m) => m.name));
      const again = migrate();
      expect(again.status, again.stderr).toBe(0);
      expect(JSON.parse(again.stdout).applied).toEqual([]);
    } finally {
      await database.drop();
    }
  });
});
