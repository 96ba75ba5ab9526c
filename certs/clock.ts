// Time as a dependency, so renewal and polling are tested without sleeping (style P14).
export interface Clock {
  now(): Date;
  /** Resolves after ms, or early when signal aborts. */
  sleep(ms: number, signal: AbortSignal): Promise<void>;
}

export const systemClock: Clock = {
  now: () => new Date(),
  sleep: (ms, signal) =>
    new Promise((resolve) => {
      if (signal.aborted) return resolve();
      // Remove the listener when the timer fires, or each resync would leave one behind on the signal.
      const onAbort = () => { clearTimeout(t); resolve(); };
      const t = setTimeout(() => { signal.removeEventListener('abort', onAbort); resolve(); }, ms);
      signal.addEventListener('abort', onAbort, { once: true });
    }),
};
