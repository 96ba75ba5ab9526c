// Time as an injected dependency (style P14): queues, backoff and leader election take a Clock so tests never sleep.

/** Opaque timer handle; only meaningful to the Clock that returned it. */
export type TimerHandle = unknown;

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  setTimeout(fn: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

export const realClock: Clock = {
  now: () => Date.now(),
  // Not unref'd: timers behave exactly like setTimeout. Queues and electors clear theirs on shutdown/abort.
  setTimeout: (fn, ms) => setTimeout(fn, Math.max(0, ms)),
  clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
};

/**
 * Resolves after `ms` on `clock`, or as soon as `signal` aborts (never rejects), so loops can stop promptly.
 * The abort listener is removed when the timer fires; long-running loops would otherwise pile them up.
 */
export function sleep(clock: Clock, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const onAbort = () => { clock.clearTimeout(handle); resolve(); };
    const handle = clock.setTimeout(() => { signal?.removeEventListener('abort', onAbort); resolve(); }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

interface FakeTimer { id: number; due: number; fn: () => void }

/**
 * A manual clock for tests. Timers fire only inside `advance`, in due-time order (ties in creation order), and the
 * microtask queue is drained after each one so async code can schedule its next timer before time moves on.
 */
export class FakeClock implements Clock {
  private current: number;
  private nextId = 1;
  private timers: FakeTimer[] = [];

  constructor(startMs = 1_700_000_000_000) {
    this.current = startMs;
  }

  now(): number {
    return this.current;
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    const timer = { id: this.nextId++, due: this.current + Math.max(0, ms), fn };
    this.timers.push(timer);
    return timer.id;
  }

  clearTimeout(handle: TimerHandle): void {
    this.timers = this.timers.filter((t) => t.id !== handle);
  }

  /** Number of timers not yet fired. */
  pending(): number {
    return this.timers.length;
  }

  /** Moves time forward by `ms`, firing every timer that becomes due (including ones scheduled on the way). */
  async advance(ms: number): Promise<void> {
    const target = this.current + ms;
    await flush();
    for (;;) {
      const next = this.earliest();
      if (!next || next.due > target) break;
      this.timers = this.timers.filter((t) => t !== next);
      this.current = Math.max(this.current, next.due);
      next.fn();
      // Two turns: what the timer woke may itself yield a turn (shared/reconcile/yield.ts) before its next timer.
      await flush();
      await flush();
    }
    this.current = target;
    await flush();
  }

  private earliest(): FakeTimer | undefined {
    let best: FakeTimer | undefined;
    for (const t of this.timers) if (!best || t.due < best.due || (t.due === best.due && t.id < best.id)) best = t;
    return best;
  }
}

/** Lets every pending promise continuation run: setImmediate is a macrotask, so it runs after the microtask queue drains. */
export function flush(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
