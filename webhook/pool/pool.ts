// The admission worker pool: N worker threads (size.ts) that run the admission and conversion handlers, so that no
// request can hold the main thread, which only accepts connections, reads bodies and writes replies.
//
// One job per worker at a time; the rest wait here, served round-robin by source address (fair-queue.ts). The pool
// runs `size` workers plus `spares` (1), and one source never holds more than `size` of them, nor more than its share
// while other sources are active (capFor below): whatever one client
// sends, another (the apiserver) always has a worker, sharing the CPU with the first one's instead of waiting for
// its deadline; and a source whose requests recently ran past their deadline or killed their worker never takes the
// last idle worker, even while the workers it killed restart. A job's body is transferred to its worker, not copied. Each job has a deadline of worker time: the clock stops while the job waits on an RPC to main (an apiserver
// call with its own timeout), for at most the worker's RPC timeout. Past the deadline the job is answered as such,
// its worker terminated and a new one started; jobs still queued simply go to the other workers. An RPC answer that
// arrives for a worker that is gone is dropped: main holds nothing for it beyond the call's own timeout.
import type { Worker } from 'node:worker_threads';
import { startWorker } from './entry.js';
import type { Logger } from 'pino';
import type { Answer } from '../admission/answer.js';
import type { AdmissionExecutor, Unanswered } from './executor.js';
import type { Envelope, FromWorker, JobKind, ToWorker } from './protocol.js';
import type { RpcHost } from './rpc.js';
import type { SnapshotParts } from './snapshot.js';
import type { WorkerData } from './worker-runtime.js';
import { FairQueue } from './fair-queue.js';
import { newEnvelopeSlot, readEnvelope, type EnvelopeSlot } from './envelope-slot.js';

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
  workerData: Omit<WorkerData, 'rpcs' | 'rpcTimeoutMs' | 'envelopeSlot'>;
  rpc: RpcHost;
  /** Every cache part, for a worker that starts; later changes come through `pushSnapshot`. */
  snapshot: () => SnapshotParts;
  log: Logger;
  events?: PoolEvents;
  /** Wait before replacing a worker that died before it was ready (a broken entry must not spin). */
  respawnDelayMs?: number;
}

/** What the pool reports as it happens (metrics.ts counts them). */
export interface PoolEvents {
  deadlineExceeded(): void;
  restart(): void;
}

export interface PoolStats { workers: number; ready: number; busy: number; queued: number; pendingRpcs: number; deadlineExceeded: number; restarts: number }

export interface AdmissionPool extends AdmissionExecutor {
  pushSnapshot(parts: Partial<SnapshotParts>): void;
  stats(): PoolStats;
  /** Resolves once every worker has taken its snapshot and can take requests. */
  ready(): Promise<void>;
}

interface Job {
  id: number; kind: JobKind; path: string; bytes: Uint8Array; source: string;
  resolve: (a: Answer | Unanswered) => void;
  envelope?: Envelope;
  /** Worker time used before the current run of the clock, and when that run started. */
  usedMs: number; since: number; rpcs: number; timer?: NodeJS.Timeout;
}

interface Slot { worker: Worker; ready: boolean; dead: boolean; job?: Job; rpcs: Set<number>; envelopes: EnvelopeSlot }

export function createPool(o: PoolOptions): AdmissionPool {
  const slots = new Set<Slot>();
  const queue = new FairQueue<Job>();
  const total = o.size + (o.spares ?? 1);
  const holding = (source: string) => { let n = 0; for (const s of slots) if (s.job?.source === source) n++; return n; };
  // Sources that sent a request within ACTIVE_MS. While several are active each may hold only its share of the
  // workers (at least one), so an expensive client cannot keep `size` workers, and the CPU they draw, busy while the
  // apiserver's reviews wait for one; alone, a source may use all `size` (the apiserver's own throughput).
  const lastSeen = new Map<string, number>();
  const ACTIVE_MS = 2_000;
  const activeSources = (now: number) => {
    let n = 0;
    for (const [source, at] of lastSeen) {
      if (now - at <= ACTIVE_MS) n++;
      else lastSeen.delete(source);
    }
    return Math.max(1, n);
  };
  const capFor = (active: number) => Math.max(1, Math.floor(o.size / active));
  // A source whose request ran past its deadline or killed its worker, recently: it never gets the last idle worker,
  // whichever workers are restarting meanwhile (the spare would otherwise go to it while the others restart).
  const penalties = new Map<string, number>();
  const PENALTY_MS = 60_000;
  const penalize = (source: string) => penalties.set(source, Date.now() + PENALTY_MS);
  const penalized = (source: string) => {
    const until = penalties.get(source);
    if (until === undefined) return false;
    if (until > Date.now()) return true;
    penalties.delete(source);
    return false;
  };
  const idleReady = () => { let n = 0; for (const s of slots) if (s.ready && !s.dead && !s.job) n++; return n; };
  let nextId = 0, deadlineExceeded = 0, restarts = 0, closed = false;
  const readyWaiters: Array<() => void> = [];
  const data: Omit<WorkerData, 'envelopeSlot'> = { ...o.workerData, rpcs: Object.keys(o.rpc) as WorkerData['rpcs'], rpcTimeoutMs: o.rpcTimeoutMs };
  /** The job's envelope: from a message when it came as one, else from the worker's slot. */
  const envelopeOf = (slot: Slot, job: Job) => job.envelope ?? readEnvelope(slot.envelopes, job.id);

  const settleReady = () => {
    if ([...slots].filter((s) => s.ready).length < total) return;
    for (const w of readyWaiters.splice(0)) w();
  };

  const arm = (slot: Slot, job: Job, ms: number) => {
    clearTimeout(job.timer);
    job.timer = setTimeout(() => expire(slot, job), Math.max(0, ms));
  };
  const remaining = (job: Job) => o.deadlineMs - job.usedMs;

  const expire = (slot: Slot, job: Job) => {
    if (slot.job !== job) return;
    deadlineExceeded++;
    o.events?.deadlineExceeded();
    penalize(job.source);
    slot.job = undefined;
    const envelope = envelopeOf(slot, job);
    job.resolve({ outcome: { kind: 'deadline', ms: o.deadlineMs, ...(envelope ? { envelope } : {}) } });
    o.log.warn({ path: job.path, uid: envelope?.uid, deadlineMs: o.deadlineMs }, 'admission request past its deadline: worker replaced');
    replace(slot);
  };

  const dispatch = () => {
    for (const slot of slots) {
      if (!queue.size) return;
      if (!slot.ready || slot.dead || slot.job) continue;
      const idle = idleReady();
      const cap = capFor(activeSources(Date.now()));
      const job = queue.take((source) => holding(source) < cap && (idle > 1 || !penalized(source)));
      if (!job) return;
      slot.job = job;
      job.since = Date.now();
      arm(slot, job, remaining(job));
      // A buffer that is not the view's whole is copied once, so the transfer never takes bytes that are not the job's.
      const whole = job.bytes.byteOffset === 0 && job.bytes.byteLength === job.bytes.buffer.byteLength && job.bytes.buffer instanceof ArrayBuffer;
      const body = whole ? (job.bytes.buffer as ArrayBuffer) : job.bytes.slice().buffer;
      const m: ToWorker = { t: 'job', id: job.id, kind: job.kind, path: job.path, body, source: job.source };
      slot.worker.postMessage(m, [body]);
    }
  };

  const onRpc = (slot: Slot, m: Extract<FromWorker, { t: 'rpc' }>) => {
    const job = slot.job;
    const reply = (r: ToWorker) => { if (!slot.dead && slot.rpcs.delete(m.rid)) slot.worker.postMessage(r); };
    slot.rpcs.add(m.rid);
    if (!job || job.id !== m.id) return reply({ t: 'rpc-reply', rid: m.rid, ok: false, message: 'no such request' });
    const method = o.rpc[m.method] as ((...a: unknown[]) => Promise<unknown>) | undefined;
    if (!method) return reply({ t: 'rpc-reply', rid: m.rid, ok: false, message: `${m.method}: not available in this webhook` });
    // The clock stops for the call, up to the worker's own RPC timeout; a worker still silent after that is stuck.
    if (job.rpcs++ === 0) { job.usedMs += Date.now() - job.since; arm(slot, job, remaining(job) + o.rpcTimeoutMs); }
    const done = () => {
      if (slot.job === job && --job.rpcs === 0) { job.since = Date.now(); arm(slot, job, remaining(job)); }
    };
    method(...m.args).then(
      (value) => { done(); reply({ t: 'rpc-reply', rid: m.rid, ok: true, value }); },
      (err: unknown) => { done(); reply({ t: 'rpc-reply', rid: m.rid, ok: false, message: err instanceof Error ? err.message : String(err) }); },
    );
  };

  const onMessage = (slot: Slot, m: FromWorker) => {
    if (slot.dead) return;
    if (m.t === 'ready') { slot.ready = true; settleReady(); dispatch(); return; }
    if (m.t === 'rpc') return onRpc(slot, m);
    const job = slot.job;
    if (!job || job.id !== m.id) return;
    if (m.t === 'envelope') { job.envelope = m.envelope; return; }
    clearTimeout(job.timer);
    slot.job = undefined;
    job.resolve({ outcome: m.outcome, body: new Uint8Array(m.body) });
    dispatch();
  };

  const start = (): Slot => {
    const envelopes = newEnvelopeSlot();
    const worker = startWorker(o.entry, { workerData: { ...data, envelopeSlot: envelopes } satisfies WorkerData, ...(o.heapMb ? { resourceLimits: { maxOldGenerationSizeMb: o.heapMb } } : {}) });
    const slot: Slot = { worker, ready: false, dead: false, rpcs: new Set(), envelopes };
    slots.add(slot);
    worker.on('message', (m: FromWorker) => onMessage(slot, m));
    worker.on('error', (err) => o.log.error({ err }, 'admission worker failed'));
    worker.on('exit', (code) => {
      if (slot.dead) return;
      const job = slot.job;
      slot.job = undefined;
      clearTimeout(job?.timer);
      if (job) penalize(job.source);
      const envelope = job && envelopeOf(slot, job);
      job?.resolve({ outcome: { kind: 'crashed', message: `the admission worker exited (code ${code})`, ...(envelope ? { envelope } : {}) } });
      if (!closed) o.log.error({ code }, 'admission worker exited: replacing it');
      const wasReady = slot.ready;
      replace(slot, wasReady ? 0 : (o.respawnDelayMs ?? 1_000));
    });
    const first: ToWorker = { t: 'snapshot', parts: o.snapshot() };
    worker.postMessage(first);
    return slot;
  };

  function replace(slot: Slot, delayMs = 0) {
    slot.dead = true;
    slot.rpcs.clear();
    slots.delete(slot);
    void slot.worker.terminate();
    if (closed) return;
    restarts++;
    o.events?.restart();
    const again = () => { if (!closed) { start(); dispatch(); } };
    if (delayMs) setTimeout(again, delayMs).unref();
    else again();
  }

  for (let i = 0; i < total; i++) start();

  return {
    run(kind, path, bytes, source = '') {
      if (closed) return Promise.resolve({ outcome: { kind: 'crashed', message: 'the admission pool is closed' } });
      lastSeen.set(source, Date.now());
      return new Promise((resolve) => {
        queue.push({ id: ++nextId, kind, path, bytes, source, resolve, usedMs: 0, since: 0, rpcs: 0 });
        dispatch();
      });
    },
    pushSnapshot(parts) {
      const m: ToWorker = { t: 'snapshot', parts };
      for (const s of slots) if (!s.dead) s.worker.postMessage(m);
    },
    stats: () => {
      const list = [...slots];
      return {
        workers: list.length,
        ready: list.filter((s) => s.ready).length,
        busy: list.filter((s) => s.job).length,
        queued: queue.size,
        pendingRpcs: list.reduce((n, s) => n + s.rpcs.size, 0),
        deadlineExceeded,
        restarts,
      };
    },
    ready: () => new Promise((resolve) => { readyWaiters.push(resolve); settleReady(); }),
    async close() {
      closed = true;
      for (const job of queue.drain()) job.resolve({ outcome: { kind: 'crashed', message: 'the admission pool is closed' } });
      await Promise.all([...slots].map((s) => {
        s.dead = true;
        clearTimeout(s.job?.timer);
        s.job?.resolve({ outcome: { kind: 'crashed', message: 'the admission pool is closed' } });
        return s.worker.terminate();
      }));
      slots.clear();
    },
  };
}
