// A typed, self-healing read cache over a list-watch source (shared/kube/list-watch.ts, behind every informer of
// the webhook, the controllers and the daemon).
//
// The source relists on 410 Gone and re-watches after a watch ends or goes idle, but on any other error it stops and
// only calls the error callbacks. This wrapper does that restart once, with capped exponential backoff and an
// injected delay, and exposes `synced` so readiness can wait for the first full list, and `silentForMs` so health
// can notice a cache that stopped hearing from the apiserver (cache-health.ts).
import type { Logger } from 'pino';

/** The part of ListWatch we depend on; tests pass a fake with the same shape. */
export interface ListWatchSource<T> {
  on(verb: 'error', cb: (err?: unknown) => void): void;
  /** The apiserver answered: a list, a watch opened, an event or a bookmark. */
  on(verb: 'alive', cb: () => void): void;
  on(verb: 'add' | 'update' | 'delete', cb: (obj: T) => void): void;
  start(): Promise<void>;
  stop(): Promise<void>;
  list(namespace?: string): ReadonlyArray<T>;
  get(name: string, namespace?: string): T | undefined;
}

export type ChangeVerb = 'add' | 'update' | 'delete';

export interface Cache<T> {
  /** Resolves after the first successful full list; never rejects (errors are retried). */
  readonly synced: Promise<void>;
  isSynced(): boolean;
  list(): ReadonlyArray<T>;
  /** key is `name` for cluster-scoped objects, `namespace/name` otherwise. */
  get(key: string): T | undefined;
  /**
   * Registers a callback for add/update/delete. Updates carry only the new object (the store already replaced the old
   * one); a handler that needs the previous state keeps what it saw.
   */
  onChange(cb: (obj: T, verb: ChangeVerb) => void): void;
  /**
   * Milliseconds since the source last heard from the apiserver (a list, a watch opened, an event or a bookmark),
   * counted from the informer's start until the first. Absent on fixed caches (tests), which never go stale.
   */
  silentForMs?(): number;
}

export interface InformerOptions {
  log: Logger;
  /** Injected for tests; defaults to setTimeout. */
  delay?: (ms: number, signal: AbortSignal) => Promise<void>;
  initialBackoffMs?: number;
  maxBackoffMs?: number;
  /** Milliseconds since the epoch; injected for tests. Defaults to Date.now. */
  now?: () => number;
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    // The listener is removed when the timer fires, or every retry would leave one behind on the signal.
    const onAbort = () => { clearTimeout(t); resolve(); };
    const t = setTimeout(() => { signal.removeEventListener('abort', onAbort); resolve(); }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });

/** Starts the source and keeps it running until `signal` aborts. */
export function startInformer<T>(source: ListWatchSource<T>, signal: AbortSignal, opts: InformerOptions): Cache<T> {
  const delay = opts.delay ?? sleep;
  const initial = opts.initialBackoffMs ?? 500;
  const max = opts.maxBackoffMs ?? 30_000;
  const now = opts.now ?? Date.now;
  let heard = now();
  source.on('alive', () => { heard = now(); });
  let synced = false;
  let backoff = initial;
  let markSynced!: () => void;
  const syncedPromise = new Promise<void>((r) => (markSynced = r));
  const listeners: ((obj: T, verb: ChangeVerb) => void)[] = [];
  for (const verb of ['add', 'update', 'delete'] as const) source.on(verb, (obj: T) => listeners.forEach((l) => l(obj, verb)));

  // One run = start() until the source reports an error (during the list, or later when the watch breaks).
  let failed = false;
  let broke: () => void = () => {};
  source.on('error', (err?: unknown) => {
    failed = true;
    if (!signal.aborted) opts.log.warn({ err }, 'informer failed; restarting with backoff');
    broke();
  });
  const aborted = new Promise<void>((r) => signal.addEventListener('abort', () => r(), { once: true }));
  signal.addEventListener('abort', () => void source.stop(), { once: true });

  const loop = async () => {
    while (!signal.aborted) {
      failed = false;
      const broken = new Promise<void>((r) => (broke = r));
      await source.start();
      if (!failed) {
        heard = now();
        if (!synced) { synced = true; markSynced(); }
        backoff = initial;
        await Promise.race([broken, aborted]);
        if (signal.aborted) return;
      }
      await delay(backoff, signal);
      backoff = Math.min(backoff * 2, max);
    }
  };
  void loop();

  return {
    synced: syncedPromise,
    isSynced: () => synced,
    list: () => source.list(),
    get: (key) => {
      const i = key.indexOf('/');
      return i < 0 ? source.get(key) : source.get(key.slice(i + 1), key.slice(0, i));
    },
    onChange: (cb) => listeners.push(cb),
    silentForMs: () => now() - heard,
  };
}
