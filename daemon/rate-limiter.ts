// The requeue backoff every kruise-daemon controller uses (spec/daemon-and-controllers.md §1.5): per key,
// exponential from 500 ms to 50 s, plus a random 0–5 s so the nodes of a cluster do not retry in step.
import { ExponentialFailureRateLimiter, type RateLimiter } from '../shared/reconcile/backoff.js';

export const DAEMON_BACKOFF_BASE_MS = 500;
export const DAEMON_BACKOFF_MAX_MS = 50_000;
export const DAEMON_BACKOFF_JITTER_MS = 5_000;

export function daemonRateLimiter(random: () => number = Math.random): RateLimiter {
  const exp = new ExponentialFailureRateLimiter(DAEMON_BACKOFF_BASE_MS, DAEMON_BACKOFF_MAX_MS);
  return {
    when: (key) => exp.when(key) + Math.floor(random() * DAEMON_BACKOFF_JITTER_MS),
    forget: (key) => exp.forget(key),
    numRequeues: (key) => exp.numRequeues(key),
  };
}
