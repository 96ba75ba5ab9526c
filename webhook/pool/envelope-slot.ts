// Where a worker leaves the envelope (apiVersion, uid) of the review it is answering, for main to read only if it
// must answer for it (past the deadline, or the worker died): a SharedArrayBuffer per worker instead of a message
// per review, which would wake the main thread once more for every review. A terminated worker's slot stays
// readable. An envelope too long for the slot goes as a message instead (protocol.ts 'envelope').
import type { Envelope } from './protocol.js';

const SLOT_BYTES = 4096;
const HEADER = 8;

export type EnvelopeSlot = SharedArrayBuffer;

const encoder = new TextEncoder();

export const newEnvelopeSlot = (): EnvelopeSlot => new SharedArrayBuffer(SLOT_BYTES);

/** Worker side: false when the envelope does not fit (the caller sends it as a message). */
export function writeEnvelope(slot: EnvelopeSlot, jobId: number, e: Envelope): boolean {
  const head = new Int32Array(slot, 0, 2);
  const bytes = new Uint8Array(slot, HEADER);
  Atomics.store(head, 0, 0);
  const text = JSON.stringify(e);
  const { written, read } = encoder.encodeInto(text, bytes);
  if (read !== text.length) return false;
  head[1] = written;
  // Published last: main reads the bytes only under the job's id.
  Atomics.store(head, 0, jobId);
  return true;
}

/** Main side: the envelope of job `jobId`, if its worker wrote one. */
export function readEnvelope(slot: EnvelopeSlot, jobId: number): Envelope | undefined {
  const head = new Int32Array(slot, 0, 2);
  if (Atomics.load(head, 0) !== jobId) return undefined;
  const text = new TextDecoder().decode(new Uint8Array(slot, HEADER, head[1]!).slice());
  try { return JSON.parse(text) as Envelope; } catch { return undefined; }
}
