// The pool as the webhook's composition root starts it: sized (size.ts), fed the caches' snapshots (snapshot.ts),
// answering its workers' RPCs with main's API clients (rpc.ts), counted on the webhook's registry (metrics.ts).
import type { Registry } from 'prom-client';
import type { Logger } from 'pino';
import type { FeatureGate } from '../../shared/config.js';
import type { CacheSet } from '../caches.js';
import { workerEntry } from './entry.js';
import { poolMetrics } from './metrics.js';
import { createPool, type AdmissionPool } from './pool.js';
import type { RpcHost } from './rpc.js';
import { snapshotSource } from './snapshot.js';

/**
 * A handler waits this long for one RPC to main. Under the pod webhook's 10 s timeout and above main's own bounds on
 * what it waits for there (3 s per dry-run or SubjectAccessReview, 5 s for the SidecarSet cache's first list).
 */
export const RPC_TIMEOUT_MS = 8_000;

/**
 * Each worker's heap cap. A maximal review (7 MiB in, a patch out) needs well under 100 MB; with the chart's 1 GiB
 * limit and a few workers, one worker's runaway review must end in that worker, not in the container's OOM kill.
 */
export const WORKER_HEAP_MB = 192;

export interface StartPoolOptions {
  size: number;
  deadlineMs: number;
  gates: Readonly<Record<FeatureGate, boolean>>;
  cacheSet: CacheSet;
  rpc: RpcHost;
  registry: Registry;
  log: Logger;
  entry?: URL;
}

export function startAdmissionPool(o: StartPoolOptions): AdmissionPool {
  // The source and the metrics reach the pool once it exists; the pool asks the source for its first snapshot.
  const ref: { pool?: AdmissionPool } = {};
  const source = snapshotSource(o.cacheSet, (parts) => ref.pool?.pushSnapshot(parts));
  const events = poolMetrics(o.registry, () => ref.pool?.stats());
  const pool = ref.pool = createPool({
    size: o.size,
    entry: o.entry ?? workerEntry(),
    deadlineMs: o.deadlineMs,
    rpcTimeoutMs: RPC_TIMEOUT_MS,
    heapMb: WORKER_HEAP_MB,
    workerData: { gates: o.gates },
    rpc: o.rpc,
    snapshot: source.full,
    log: o.log.child({ component: 'admission-pool' }),
    events,
  });
  const close = pool.close;
  return { ...pool, close: () => { source.stop(); return close(); } };
}
