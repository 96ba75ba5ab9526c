// What route.ts hands a request body to: the worker pool in production (pool.ts), the same functions in-thread for
// unit tests (in-thread.ts). Both answer with the outcome and the reply bytes; only the pool has deadlines.
import type { Answer } from '../admission/answer.js';
import type { Envelope, JobKind } from './protocol.js';

/** A request the executor could not answer itself: past its deadline, or its worker died under it. */
export type Unanswered = { outcome: { kind: 'deadline'; ms: number; envelope?: Envelope } | { kind: 'crashed'; message: string; envelope?: Envelope } };

export interface AdmissionExecutor {
  /**
   * Answers one request body for `path`. `bytes` must own its buffer whole: the pool shares a SharedArrayBuffer with
   * a worker (body.ts reads bodies into one), or transfers an ArrayBuffer, after which it is empty on this side.
   * `source`: the client's address, for the pool's per-source fairness.
   */
  run(kind: JobKind, path: string, bytes: Uint8Array, source?: string): Promise<Answer | Unanswered>;
  close(): Promise<void>;
}
