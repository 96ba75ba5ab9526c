// A byte semaphore over the admission bodies being buffered, shared by every admission route of one server: the
// per-request body limit (7 MiB) alone let many slow or stalled bodies together fill the heap (review H1: 40 stalled
// 7 MiB bodies took the RSS from 254 to 508 MB).

export interface ByteBudget {
  /** The most bytes that may be held at once. */
  readonly cap: number;
  /** Bytes held now. */
  readonly used: number;
  /** The most bytes ever held at once: what tests and benchmarks compare with the cap. */
  readonly peak: number;
  /** Takes `n` bytes if they fit under the cap, else takes nothing and returns false. Never waits. */
  tryAcquire(n: number): boolean;
  /** Gives back `n` bytes taken earlier. */
  release(n: number): void;
}

export function byteBudget(cap: number): ByteBudget {
  let used = 0;
  let peak = 0;
  return {
    cap,
    get used() { return used; },
    get peak() { return peak; },
    tryAcquire(n) {
      if (used + n > cap) return false;
      used += n;
      if (used > peak) peak = used;
      return true;
    },
    release(n) {
      used -= n;
      if (used < 0) throw new Error(`byte budget released ${-used} bytes more than it held`);
    },
  };
}
