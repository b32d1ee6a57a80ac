// How the server process is started: by `npm start` (scripts/start.mjs) and by
// every test and bench server (tests/api/harness.ts), so both run what ships.
//
// --max-semi-space-size=64 (MiB; Node 20's default is 16): per-request objects
// of the model gateway that are still referenced when a young-generation GC
// runs get copied and promoted, and a bigger young generation lets more of them
// die first. Measured with `npm run bench:models` on two cores: scavenges during
// the throughput steps 147 taking 873 ms in all by default, 34 taking 229 ms
// with 64, and the gateway's added p99 at concurrency 2 from 9.8 ms to 4.1 ms
// (one run each, same build).
// The cost is memory: RSS idle after start-up 429 MiB against 374, and 522 against 461 at the peak of
// 10,000 chat requests (one run each).
export const SERVER_NODE_ARGS = ["--max-semi-space-size=64", "--import", "tsx", "server.ts"];
