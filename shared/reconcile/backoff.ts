// Rate limiters for requeues, with client-go workqueue semantics (util/workqueue/default_rate_limiters.go):
// a per-key exponential backoff, a shared token bucket, and "max of" to combine them.
import type { Clock } from '../clock.js';

export interface RateLimiter {
  /** How long to wait before `key` may be retried; records one more failure for it. */
  when(key: string): number;
  /** Clears the failure history of `key` (call after a success). */
  forget(key: string): void;
  /** Failures recorded for `key` since the last forget. */
  numRequeues(key: string): number;
}

/** base·2^failures, capped at max. Defaults are controller-runtime's: 5 ms base, 1000 s cap. */
export class ExponentialFailureRateLimiter implements RateLimiter {
  private readonly failures = new Map<string, number>();

  constructor(private readonly baseMs = 5, private readonly maxMs = 1_000_000) {}

  when(key: string): number {
    const n = this.failures.get(key) ?? 0;
    this.failures.set(key, n + 1);
    // 2^n overflows to Infinity long before it matters; the cap takes care of it.
    return Math.min(this.baseMs * 2 ** n, this.maxMs);
  }

  forget(key: string): void {
    this.failures.delete(key);
  }

  numRequeues(key: string): number {
    return this.failures.get(key) ?? 0;
  }
}

/**
 * An overall token bucket (golang.org/x/time/rate reservation semantics): `burst` retries are immediate, then one
 * every 1/qps seconds across all keys, so a mass failure cannot hammer the API server. Keys are not tracked.
 */
export class BucketRateLimiter implements RateLimiter {
  private tokens: number;
  private last: number;

  constructor(private readonly clock: Clock, private readonly qps = 10, private readonly burst = 100) {
    this.tokens = burst;
    this.last = clock.now();
  }

  when(): number {
    const now = this.clock.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.qps);
    this.last = now;
    // Reserve a token even if it is not there yet; the debt is what makes later callers wait longer.
    this.tokens -= 1;
    return this.tokens >= 0 ? 0 : Math.ceil((-this.tokens / this.qps) * 1000);
  }

  forget(): void {}

  numRequeues(): number {
    return 0;
  }
}

/** The longest delay any of `limiters` asks for; controller-runtime's default is exponential + bucket. */
export class MaxOfRateLimiter implements RateLimiter {
  private readonly limiters: RateLimiter[];

  constructor(...limiters: RateLimiter[]) {
    this.limiters = limiters;
  }

  when(key: string): number {
    return Math.max(0, ...this.limiters.map((l) => l.when(key)));
  }

  forget(key: string): void {
    for (const l of this.limiters) l.forget(key);
  }

  numRequeues(key: string): number {
    return Math.max(0, ...this.limiters.map((l) => l.numRequeues(key)));
  }
}

/** controller-runtime's DefaultTypedControllerRateLimiter: max(exponential 5 ms..1000 s, bucket 10 qps / 100 burst). */
export function defaultControllerRateLimiter(clock: Clock): RateLimiter {
  return new MaxOfRateLimiter(new ExponentialFailureRateLimiter(5, 1_000_000), new BucketRateLimiter(clock, 10, 100));
}
