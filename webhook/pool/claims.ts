// Who runs a job that main has sent to a busy worker (pool.ts pipelines a few jobs per worker while one client keeps
// them all busy, so that a worker takes several reviews per wake-up instead of one). Such a job may never start:
// its worker can stall on the job before it, go into an RPC, or die. Main then takes the job back and gives it to
// another worker, which works only if exactly one side wins: each job has a word in its worker's ring (a
// SharedArrayBuffer per worker, like envelope-slot.ts), which the worker turns from "offered" to "started" before it
// runs the job, and main from "offered" to "revoked" when it takes the job back; one compare-and-swap each.
//
// A word holds the job's sequence number within its worker (28 bits, wrapping) and the state (2 bits). A worker never
// has more than RING - 1 jobs outstanding (pool.ts's depth is far below), so two outstanding jobs never share a word.
export type ClaimRing = SharedArrayBuffer;

export const RING = 64;
const OFFERED = 1, STARTED = 2, REVOKED = 3;
const tag = (seq: number) => (seq & 0x0fffffff) * 4;
const word = (seq: number) => seq % RING;

export const newClaimRing = (): ClaimRing => new SharedArrayBuffer(RING * 4);

/** Main, before sending job `seq` to the worker. */
export function offer(ring: ClaimRing, seq: number): void {
  Atomics.store(new Int32Array(ring), word(seq), tag(seq) + OFFERED);
}

/** Worker, before running job `seq`: false when main took it back (the worker then skips it). */
export function start(ring: ClaimRing, seq: number): boolean {
  return Atomics.compareExchange(new Int32Array(ring), word(seq), tag(seq) + OFFERED, tag(seq) + STARTED) === tag(seq) + OFFERED;
}

/** Main: true when job `seq` was taken back before its worker started it (the worker will skip it). */
export function revoke(ring: ClaimRing, seq: number): boolean {
  return Atomics.compareExchange(new Int32Array(ring), word(seq), tag(seq) + OFFERED, tag(seq) + REVOKED) === tag(seq) + OFFERED;
}
