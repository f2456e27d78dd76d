// The V8 settings production processes run with: `npm start`, `npm run worker` and `npm run cluster` pass
// them on node's command line (package.json), the image sets them in NODE_OPTIONS (deploy/Dockerfile),
// the cluster's children get them here, and the benchmarks start the server with them.
// test/deploy-files.test.ts holds every place to this list.
//
// A young generation of up to 32 MB a semi-space (V8's default is 16): a keyed request allocates ~25 kB
// that dies within milliseconds, and with the default size the scavenger ran every ~35 ms under load,
// copying the requests still in flight each time — 12 % of the CPU at 15k req/s. At 32 MB it runs half
// as often for a quarter of the time (measured: 574-635 ms of scavenges in 5 s against 137 ms), +20 %
// requests a second. Memory grows only under load, by at most the extra 32 MB.
export const SERVER_NODE_FLAGS = ["--max-semi-space-size=32"];
