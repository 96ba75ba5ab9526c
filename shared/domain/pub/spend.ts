// Spending one unit of a PodUnavailableBudget through the apiserver (spec/availability-guards.md §3.5 step 7): under
// a per-PUB lock, up to 4 attempts 500 ms apart, the status written with the resourceVersion read, so concurrent
// spenders (other webhook replicas, the CloneSet pre-check, the controller's refresh) never overspend. The I/O is
// passed in; the webhook's main thread and the controller each build one spender.
import type { PodUnavailableBudget, PubOperation } from '../../api/pod-unavailable-budget.js';
import { spendOne } from './budget.js';

export interface PubStore {
  /** The informer's copy, or undefined. */
  cached(namespace: string, name: string): PodUnavailableBudget | undefined;
  /** A fresh GET; undefined when NotFound. */
  get(namespace: string, name: string): Promise<PodUnavailableBudget | undefined>;
  /** PUT of the status subresource with the copy's resourceVersion; rejects with a Conflict (409) when stale. */
  updateStatus(pub: PodUnavailableBudget): Promise<PodUnavailableBudget>;
}

export interface SpendDeps {
  store: PubStore;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  isConflict: (err: unknown) => boolean;
  isNotFound: (err: unknown) => boolean;
  /** Error text for a failed write, shown in the refusal (never a whole response body). */
  message: (err: unknown) => string;
}

export interface SpendRequest { namespace: string; pubName: string; podName: string; operation: PubOperation; dryRun: boolean }
export type SpendResult = { allowed: true; reason: string } | { allowed: false; message: string };

/** client-go retry.DefaultRetry as upstream uses it here: 4 steps, 500 ms apart. */
export const SPEND_ATTEMPTS = 4;
export const SPEND_INTERVAL_MS = 500;
/** Copies remembered (the PUBs this process wrote last); the oldest is forgotten first. */
const MAX_REMEMBERED = 10_000;

const rvOf = (p: PodUnavailableBudget | undefined): bigint => {
  const rv = p?.metadata?.resourceVersion ?? '';
  return /^\d+$/.test(rv) ? BigInt(rv) : -1n;
};

/** The budget spender: `spend` serialises the requests of one PUB and remembers the copies it wrote. */
export function pubSpender(deps: SpendDeps) {
  const written = new Map<string, PodUnavailableBudget>();
  const locks = new Map<string, Promise<unknown>>();
  const remember = (key: string, pub: PodUnavailableBudget) => {
    written.delete(key);
    written.set(key, pub);
    while (written.size > MAX_REMEMBERED) written.delete(written.keys().next().value as string);
  };
  /** The newer (larger resourceVersion) of the copy this process wrote and the informer's. */
  const freshest = (key: string, ns: string, name: string) => {
    const mine = written.get(key);
    const cached = deps.store.cached(ns, name);
    return rvOf(mine) > rvOf(cached) ? mine : cached;
  };

  async function attempt(r: SpendRequest, key: string): Promise<SpendResult> {
    let last: unknown;
    for (let i = 0; i < SPEND_ATTEMPTS; i++) {
      if (i > 0) await deps.sleep(SPEND_INTERVAL_MS);
      const pub = i === 0 ? freshest(key, r.namespace, r.pubName) : await deps.store.get(r.namespace, r.pubName);
      if (!pub) return { allowed: true, reason: 'pub not found' };
      const spent = spendOne(pub, r.podName, r.operation, deps.now());
      if ('deny' in spent) return { allowed: false, message: spent.deny };
      if (r.dryRun) return { allowed: true, reason: 'dry run' };
      try {
        remember(key, await deps.store.updateStatus({ ...pub, status: spent.status }));
        return { allowed: true, reason: 'budget spent' };
      } catch (err) {
        if (deps.isNotFound(err)) return { allowed: true, reason: 'pub not found' };
        if (!deps.isConflict(err)) return { allowed: false, message: deps.message(err) };
        last = err;
      }
    }
    return { allowed: false, message: deps.message(last) };
  }

  /** `fn` after every earlier holder of `key` finished (a FIFO per PUB, as upstream's keyed mutex). */
  function locked<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const prev = locks.get(key) ?? Promise.resolve();
    const run = prev.then(fn, fn);
    const tail = run.catch(() => undefined);
    locks.set(key, tail);
    void tail.then(() => { if (locks.get(key) === tail) locks.delete(key); });
    return run;
  }

  return {
    spend(r: SpendRequest): Promise<SpendResult> {
      const key = `${r.namespace}/${r.pubName}`;
      return locked(key, () => attempt(r, key));
    },
    locked,
    /** The copy this process last wrote, for the controller's copy selection. */
    freshest,
    remember,
    forget: (key: string) => void written.delete(key),
  };
}
export type PubSpender = ReturnType<typeof pubSpender>;
