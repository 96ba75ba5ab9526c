// The reconciler contract (controller-runtime pkg/reconcile): keyed, level-based, idempotent (style P6).
import type { Logger } from 'pino';

/**
 * What a reconcile asks of the runner. An empty result means "done until something changes"; `requeueAfterMs`
 * means "look again after this long even if nothing changes" (e.g. waiting for a deadline) and resets backoff.
 * Failures are expressed by throwing, never by a result field.
 */
export interface Result {
  requeueAfterMs?: number;
}

export interface ReconcileContext {
  /** Child logger bound to { controller, key, reconcileId }. */
  log: Logger;
  /** Aborted when the controller stops; pass it to API calls and sleeps. */
  signal: AbortSignal;
}

/** Reconciles the object named by `key` ('ns/name' or 'name'); NotFound in the cache means "deleted, done". */
export type ReconcileFn = (key: string, ctx: ReconcileContext) => Promise<Result | void>;

/**
 * An error that retrying cannot fix (invalid spec, unsupported field). The runner logs it and forgets the key
 * instead of backing off; the next change to the object will enqueue it again. Mirrors reconcile.TerminalError.
 */
export class TerminalError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'TerminalError';
  }
}

export function isTerminalError(err: unknown): boolean {
  // Wrapped terminal errors (new Error('sync', { cause: terminal })) stay terminal, as errors.Is does in Go.
  for (let e = err, depth = 0; e instanceof Error && depth < 10; e = e.cause, depth++) {
    if (e instanceof TerminalError) return true;
  }
  return false;
}
