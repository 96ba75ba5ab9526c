// The admission benchmark's kruise-ts server: buildApp with the production handler table run as production runs it,
// in the admission worker pool (webhook/pool/: one worker per CPU this process may use, at least 2; the worker
// bundle beside this one, servers.ts), the production logger at info (to stdout, which the benchmark discards), and
// 100 SidecarSets in static caches, 10 of them selecting the pods, pushed to the workers as snapshots.
import { createLogger } from '../../shared/log.js';
import { buildApp } from '../../webhook/app.js';
import { makeRoutes } from '../../webhook/handlers/index.js';
import { createMetrics } from '../../webhook/metrics.js';
import { createPool } from '../../webhook/pool/pool.js';
import { poolSize } from '../../webhook/pool/size.js';
import { snapshotSource } from '../../webhook/pool/snapshot.js';
import { workerEntry } from '../../webhook/pool/entry.js';
import { benchCacheSet, BENCH_GATES, routeDeps } from './fixtures.js';
import { readTls, serve } from './serve.js';

const log = createLogger({ level: 'info', name: 'kruise-webhook' });
const set = benchCacheSet();
const source = snapshotSource(set, () => {});
const pool = createPool({ size: poolSize(undefined), entry: workerEntry(), deadlineMs: 2_000, rpcTimeoutMs: 8_000, workerData: { gates: BENCH_GATES }, rpc: {}, snapshot: source.full, log });
await pool.ready();
const app = buildApp({
  log,
  metrics: createMetrics(),
  tls: await readTls(),
  executor: pool,
  // The real clock: the hash annotations' timestamp changes every second, as in production. The workers run the same
  // table over the snapshot; this one gives the server its paths.
  routes: makeRoutes(routeDeps(() => new Date())),
});
await serve(app);
