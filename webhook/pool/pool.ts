// The admission worker pool: N worker threads (size.ts) that run the admission and conversion handlers, so that no
// request can hold the main thread, which only accepts connections, reads bodies and writes replies.
//
// One job per worker at a time; the rest wait here, served round-robin by source address (fair-queue.ts). The pool
// runs `size` workers plus `spares` (1), and one source never holds more than `size` of them, nor more than its share
// while other sources are active (capFor below, sources.ts): whatever one client
// sends, another (the apiserver) always has a worker, sharing the CPU with the first one's instead of waiting for
// its deadline; and a source whose requests recently ran past their deadline or killed their worker never takes the
// last idle worker, even while the workers it killed restart. A job's body is shared with its worker (a
// SharedArrayBuffer, body.ts) or transferred, never copied. Each job has a deadline of worker time: the clock stops
// while the job waits on an RPC to main (an apiserver call with its own timeout), for at most the worker's RPC timeout. Past the deadline the job is answered as such,
// its worker terminated and a new one started; jobs still queued simply go to the other workers. An RPC answer that
// arrives for a worker that is gone is dropped: main holds nothing for it beyond the call's own timeout.
//
// Pipelining: while a single source is active (the apiserver alone), main sends a busy worker up to `depth` - 1 more
// of that source's jobs whose bodies are SharedArrayBuffers (body.ts: shared with the worker, never copied), before it
// wakes an idle worker, so a worker answers several per wake-up instead of one per round trip: on one CPU a round
// trip per review costs more than the review. A worker runs its jobs one after another; one whose job has run
// `stallMs` gets no more. Such a job is only
// offered (claims.ts): main takes back the ones not started when the job before them goes into an RPC, runs longer
// than `stallMs`, passes its deadline or dies, and queues them again first of their source, bytes intact. So a job
// waits behind another at most `stallMs` longer than it would have in main's queue, and none is lost with a worker.
import type { Worker } from 'node:worker_threads';
import { startWorker } from './entry.js';
import type { Answer } from '../admission/answer.js';
import type { Unanswered } from './executor.js';
import type { Envelope, FromWorker, JobKind, ToWorker } from './protocol.js';
import type { WorkerData } from './worker-runtime.js';
import type { AdmissionPool, PoolOptions } from './pool-options.js';
import { FairQueue } from './fair-queue.js';
import { Sources } from './sources.js';
import { newEnvelopeSlot, readEnvelope, type EnvelopeSlot } from './envelope-slot.js';
import { newClaimRing, offer, revoke, type ClaimRing } from './claims.js';

export type { AdmissionPool, PoolEvents, PoolOptions, PoolStats } from './pool-options.js';

interface Job {
  id: number; kind: JobKind; path: string; bytes: Uint8Array; source: string;
  /** The job's word in its worker's claim ring, set when sent. */
  seq: number;
  resolve: (a: Answer | Unanswered) => void;
  envelope?: Envelope;
  /** Worker time used before the current run of the clock, and when that run started. */
  usedMs: number; since: number; rpcs: number; timer?: NodeJS.Timeout;
}

/** A worker: `job` is the one it runs (as far as main knows), `queued` those pipelined behind it, in order. */
interface Slot {
  worker: Worker; ready: boolean; dead: boolean; job?: Job; queued: Job[]; rpcs: Set<number>; envelopes: EnvelopeSlot;
  claims: ClaimRing; seq: number; stall?: NodeJS.Timeout;
}

/** A body main can give to a worker and still take back: shared, whole. */
const shareable = (job: Job) => job.bytes.buffer instanceof SharedArrayBuffer && job.bytes.byteOffset === 0 && job.bytes.byteLength === job.bytes.buffer.byteLength;

export function createPool(o: PoolOptions): AdmissionPool {
  const slots = new Set<Slot>();
  const queue = new FairQueue<Job>();
  const total = o.size + (o.spares ?? 1);
  const depth = Math.max(1, o.depth ?? 8);
  const stallMs = o.stallMs ?? 10;
  const holding = (source: string) => { let n = 0; for (const s of slots) if (s.job?.source === source) n++; return n; };
  const sources = new Sources();
  const capFor = (active: number) => Math.max(1, Math.floor(o.size / active));
  const penalize = (source: string) => sources.penalize(source);
  const penalized = (source: string) => sources.penalized(source);
  const idleReady = () => { let n = 0; for (const s of slots) if (s.ready && !s.dead && !s.job) n++; return n; };
  let nextId = 0, deadlineExceeded = 0, restarts = 0, pipelined = 0, takenBack = 0, closed = false;
  const readyWaiters: Array<() => void> = [];
  const data: Omit<WorkerData, 'envelopeSlot' | 'claims'> = { ...o.workerData, rpcs: Object.keys(o.rpc) as WorkerData['rpcs'], rpcTimeoutMs: o.rpcTimeoutMs };
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
    takeBack(slot, 'the admission worker was replaced after the review before this one passed its deadline');
    o.log.warn({ path: job.path, uid: envelope?.uid, deadlineMs: o.deadlineMs }, 'admission request past its deadline: worker replaced');
    replace(slot);
  };

  const send = (slot: Slot, job: Job) => {
    job.seq = ++slot.seq;
    offer(slot.claims, job.seq);
    if (shareable(job)) {
      const m: ToWorker = { t: 'job', id: job.id, seq: job.seq, kind: job.kind, path: job.path, body: job.bytes.buffer, source: job.source };
      return slot.worker.postMessage(m);
    }
    // A buffer that is not the view's whole is copied once, so the transfer never takes bytes that are not the job's.
    const whole = job.bytes.byteOffset === 0 && job.bytes.byteLength === job.bytes.buffer.byteLength && job.bytes.buffer instanceof ArrayBuffer;
    const body = whole ? (job.bytes.buffer as ArrayBuffer) : job.bytes.slice().buffer;
    const m: ToWorker = { t: 'job', id: job.id, seq: job.seq, kind: job.kind, path: job.path, body, source: job.source };
    slot.worker.postMessage(m, [body]);
  };

  const begin = (slot: Slot, job: Job) => {
    slot.job = job;
    job.since = Date.now();
    arm(slot, job, remaining(job));
  };

  /**
   * Takes back the pipelined jobs `slot`'s worker has not started and queues them again, first of their source. One it
   * already started (its 'done' is on its way) stays, unless the worker is going (`dying`): that one is answered so.
   */
  const takeBack = (slot: Slot, dying?: string) => {
    clearTimeout(slot.stall);
    slot.stall = undefined;
    const kept: Job[] = [];
    for (let i = slot.queued.length - 1; i >= 0; i--) {
      const job = slot.queued[i]!;
      if (revoke(slot.claims, job.seq)) { takenBack++; queue.unshift(job); }
      else if (dying === undefined) kept.unshift(job);
      else {
        penalize(job.source);
        const envelope = envelopeOf(slot, job);
        job.resolve({ outcome: { kind: 'crashed', message: dying, ...(envelope ? { envelope } : {}) } });
      }
    }
    slot.queued = kept;
  };

  const onStall = (slot: Slot) => {
    slot.stall = undefined;
    if (slot.dead || !slot.job || !slot.queued.length) return;
    const ran = Date.now() - slot.job.since;
    if (ran < stallMs) { slot.stall = setTimeout(onStall, stallMs - ran, slot); return; }
    takeBack(slot);
    dispatch();
  };

  const dispatch = () => {
    // A running worker takes more before an idle one is woken: fewer threads to wake, each with a longer queue.
    if (depth > 1 && queue.size && sources.active() === 1) pipeline();
    for (const slot of slots) {
      if (!queue.size) return;
      if (!slot.ready || slot.dead || slot.job) continue;
      const idle = idleReady();
      const cap = capFor(sources.active());
      const job = queue.take((source) => holding(source) < cap && (idle > 1 || !penalized(source)));
      if (!job) break;
      begin(slot, job);
      send(slot, job);
    }
    if (depth > 1 && queue.size && sources.active() === 1) pipeline();
  };

  /** With one source active: its next shareable jobs behind the running ones of workers that are not stalled. */
  const pipeline = () => {
    for (const slot of slots) {
      if (!slot.ready || slot.dead || !slot.job || slot.job.rpcs > 0 || Date.now() - slot.job.since >= stallMs) continue;
      while (slot.queued.length < depth - 1) {
        const job = queue.take((source) => !penalized(source), shareable);
        if (!job) return;
        slot.queued.push(job);
        pipelined++;
        send(slot, job);
        slot.stall ??= setTimeout(onStall, stallMs, slot);
      }
      if (!queue.size) return;
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
    // The jobs pipelined behind it go to other workers meanwhile.
    if (job.rpcs++ === 0) {
      job.usedMs += Date.now() - job.since;
      arm(slot, job, remaining(job) + o.rpcTimeoutMs);
      if (slot.queued.length) { takeBack(slot); dispatch(); }
    }
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
    const next = slot.queued.shift();
    if (next) begin(slot, next);
    else slot.job = undefined;
    job.resolve({ outcome: m.outcome, body: new Uint8Array(m.body) });
    dispatch();
  };

  const start = (): Slot => {
    const envelopes = newEnvelopeSlot();
    const claims = newClaimRing();
    const worker = startWorker(o.entry, { workerData: { ...data, envelopeSlot: envelopes, claims } satisfies WorkerData, ...(o.heapMb ? { resourceLimits: { maxOldGenerationSizeMb: o.heapMb } } : {}) });
    const slot: Slot = { worker, ready: false, dead: false, queued: [], rpcs: new Set(), envelopes, claims, seq: 0 };
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
      takeBack(slot, `the admission worker exited (code ${code})`);
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
      sources.seen(source);
      return new Promise((resolve) => {
        queue.push({ id: ++nextId, kind, path, bytes, source, resolve, seq: 0, usedMs: 0, since: 0, rpcs: 0 });
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
        queued: queue.size + list.reduce((n, s) => n + s.queued.length, 0),
        pendingRpcs: list.reduce((n, s) => n + s.rpcs.size, 0),
        deadlineExceeded,
        restarts,
        pipelined,
        takenBack,
      };
    },
    ready: () => new Promise((resolve) => { readyWaiters.push(resolve); settleReady(); }),
    async close() {
      closed = true;
      for (const job of queue.drain()) job.resolve({ outcome: { kind: 'crashed', message: 'the admission pool is closed' } });
      await Promise.all([...slots].map((s) => {
        s.dead = true;
        clearTimeout(s.job?.timer);
        clearTimeout(s.stall);
        s.job?.resolve({ outcome: { kind: 'crashed', message: 'the admission pool is closed' } });
        for (const job of s.queued.splice(0)) job.resolve({ outcome: { kind: 'crashed', message: 'the admission pool is closed' } });
        return s.worker.terminate();
      }));
      slots.clear();
    },
  };
}
