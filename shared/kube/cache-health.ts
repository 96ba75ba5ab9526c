// Readiness and liveness from informer caches, one rule for the webhook, the controllers and the daemon.
//
// A cache is stale when it has heard nothing from the apiserver (no list, no watch opened, no event, no bookmark)
// for longer than a window. The apiserver sends a bookmark about every minute and a silent watch is re-opened
// after its idle window (rest.ts), so a healthy cache is never silent for much longer than that idle window; a
// longer silence means the apiserver is unreachable or a connection is wedged, and the cache may be missing changes.
// Readiness fails first (the replica stops taking traffic it would answer from stale data); liveness fails only
// after a longer window, so that the kubelet restarts a replica that stays wedged, while a short apiserver outage
// restarts nothing.
import type { Cache } from './informer.js';

export interface CacheHealth {
  /** null once every cache has listed, else which are still waiting. */
  notSynced(): string | null;
  /** null unless a cache has heard nothing from the apiserver for longer than `afterMs`: which, and for how long. */
  stale(afterMs: number): string | null;
}

export interface HealthWindows {
  /** Readiness fails while a cache has been silent longer than this. */
  staleAfterMs: number;
  /** Liveness fails while a cache has been silent longer than this (≥ staleAfterMs). */
  livenessStaleAfterMs: number;
}

export interface Probes {
  /** null when ready: every cache listed and none stale past the readiness window. */
  readiness(): string | null;
  /** null when alive: no cache stale past the liveness window (a cache that never listed counts from its start). */
  liveness(): string | null;
}

type Named = Iterable<readonly [string, Cache<unknown>]>;

/** Health over caches by name; `named` is read at each call, so caches created later count too. */
export function cacheHealth(named: () => Named): CacheHealth {
  return {
    notSynced() {
      const waiting = [...named()].filter(([, c]) => !c.isSynced()).map(([n]) => n);
      return waiting.length ? `caches not synced: ${waiting.join(', ')}` : null;
    },
    stale(afterMs) {
      const silent = [...named()]
        .map(([n, c]) => [n, c.silentForMs?.() ?? 0] as const)
        .filter(([, ms]) => ms > afterMs)
        .map(([n, ms]) => `${n} (${Math.round(ms / 1000)} s)`);
      return silent.length ? `caches silent for more than ${Math.round(afterMs / 1000)} s: ${silent.join(', ')}` : null;
    },
  };
}

export function cacheProbes(health: CacheHealth, w: HealthWindows): Probes {
  return {
    readiness: () => health.notSynced() ?? health.stale(w.staleAfterMs),
    liveness: () => health.stale(w.livenessStaleAfterMs),
  };
}
