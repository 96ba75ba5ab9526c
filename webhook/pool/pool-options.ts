// What createPool (pool.ts) takes and gives: its options, the events it reports, its figures.
import type { Logger } from 'pino';
import type { AdmissionExecutor } from './executor.js';
import type { RpcHost } from './rpc.js';
import type { SnapshotParts } from './snapshot.js';
import type { WorkerData } from './worker-runtime.js';

export interface PoolOptions {
  size: number;
  /**
   * A worker's old-generation heap cap: a review that needs more kills only its worker (the review is answered 500,
   * the worker replaced), not the container. Unset: V8's default.
   */
  heapMb?: number;
  /** Workers beyond `size` that no single source may take (default 1). */
  spares?: number;
  /** The worker's entry module (worker.ts from the sources, worker.mjs beside the bundle; entry.ts). */
  entry: URL;
  deadlineMs: number;
  /** A handler waits this long for one RPC to main before it gives up (the worker's side of rpc.ts). */
  rpcTimeoutMs: number;
  workerData: Omit<WorkerData, 'rpcs' | 'rpcTimeoutMs' | 'envelopeSlot' | 'claims'>;
  rpc: RpcHost;
  /** Every cache part, for a worker that starts; later changes come through `pushSnapshot`. */
  snapshot: () => SnapshotParts;
  log: Logger;
  events?: PoolEvents;
  /** Wait before replacing a worker that died before it was ready (a broken entry must not spin). */
  respawnDelayMs?: number;
  /** Jobs a worker may have at once, running and pipelined (default 8; 1: no pipelining). */
  depth?: number;
  /** A worker's pipelined jobs are taken back once the job it runs has run this long (default 10 ms). */
  stallMs?: number;
}

/** What the pool reports as it happens (metrics.ts counts them). */
export interface PoolEvents {
  deadlineExceeded(): void;
  restart(): void;
}

export interface PoolStats {
  workers: number; ready: number; busy: number; queued: number; pendingRpcs: number; deadlineExceeded: number; restarts: number;
  /** Jobs sent to a busy worker so far, and of those, taken back before it started them (pool.ts, claims.ts). */
  pipelined: number; takenBack: number;
}

export interface AdmissionPool extends AdmissionExecutor {
  pushSnapshot(parts: Partial<SnapshotParts>): void;
  stats(): PoolStats;
  /** Resolves once every worker has taken its snapshot and can take requests. */
  ready(): Promise<void>;
}
