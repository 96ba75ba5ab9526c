// The embedded default certificate path (style §5): keep a self-signed CA + serving pair in a store (Secret or
// directory), rotate it without a failed handshake (rotation.ts: publish the new CA next to the old one, switch after
// a grace period, drop the old CA after another), publish the CAs into the webhook configurations, and expose the
// served pair as a CertificateSource. Resyncs every minute like upstream's webhook-controller, sooner when a
// rotation step is due, and at once when `resync()` is called (certs/config-watch.ts: a webhook configuration or
// conversion CRD changed by someone else). Readiness (`problem()`) fails when this replica has lost track of what
// the apiserver trusts (review N-L5).
import type { Logger } from 'pino';
import type { CaBundleTarget } from './ca-bundle.js';
import type { Clock } from './clock.js';
import { generateCA, generateServingCert } from './generate.js';
import { decide, type Decision } from './rotation.js';
import type { CertStore } from './store.js';
import { fingerprint, notAfter } from './verify.js';

export interface ServingPair {
  key: string;
  cert: string;
  notAfter?: Date;
}

export interface SelfSignedDeps {
  store: CertStore;
  /** The webhooks' caBundle: read to learn what the apiserver trusts, written with every CA a replica may serve. */
  caBundle: CaBundleTarget;
  /** DNS name (or IPv4 literal) the serving certificate must be valid for. */
  host: string;
  renewBeforeMs: number;
  clock: Clock;
  log: Logger;
  resyncMs?: number;
  /**
   * How long a new CA is published before any replica serves its leaf, and how long the old CA stays after that.
   * Must exceed every replica's resync interval (plus the apiserver's own propagation); default 2 × resyncMs.
   */
  graceMs?: number;
  retryMs?: number;
  generate?: { ca: typeof generateCA; serving: typeof generateServingCert };
}

const ATTEMPTS = 3;
/** A resync asked for by `resync()` runs at most this often (a write of ours echoes back as a change). */
export const RESYNC_MIN_INTERVAL_MS = 1_000;

export function selfSignedSource(deps: SelfSignedDeps) {
  const gen = deps.generate ?? { ca: generateCA, serving: generateServingCert };
  const resyncMs = deps.resyncMs ?? 60_000;
  const graceMs = deps.graceMs ?? 2 * resyncMs;
  const listeners: ((c: ServingPair) => void)[] = [];
  let current: ServingPair | undefined;
  /** Fingerprint of the CA of the leaf served. */
  let servedCa: string | undefined;
  /** The CA fingerprints each webhook's caBundle held at the last read (after our write, when it succeeded). */
  let trusted: (string | undefined)[][] = [];
  let lastSynced: Date | undefined;
  // resync(): wakes the loop's sleep; `asked` also covers a call that arrives while a sync runs.
  let asked = false;
  let wake: AbortController | undefined;

  const adopt = (pair: { key: string; cert: string; caCert: string }) => {
    servedCa = fingerprint(pair.caCert);
    if (current && current.cert === pair.cert && current.key === pair.key) return;
    current = { key: pair.key, cert: pair.cert, notAfter: notAfter(pair.cert) };
    for (const l of listeners) l(current);
  };

  /**
   * Why this replica should not receive admission traffic, or null. Beyond an expired leaf: a sync that has not
   * succeeded for longer than the grace period (another replica may since have switched to a new CA, and drops ours
   * one grace period after that), or a caBundle read that no longer holds the CA of the leaf served. When every
   * replica cannot sync, nothing rotates; they all go unready anyway, as they cannot tell (review N-L5).
   */
  const problem = (): string | null => {
    const now = deps.clock.now();
    if (!current?.notAfter || current.notAfter <= now) return 'no valid serving certificate';
    if (!lastSynced || now.getTime() - lastSynced.getTime() > graceMs) {
      return `certificate sync has not succeeded for more than ${Math.round(graceMs / 1000)} s (the rotation grace period)`;
    }
    if (servedCa && !trusted.every((cas) => cas.includes(servedCa))) return 'the CA of the served certificate is not in every webhook\'s caBundle';
    return null;
  };

  /** One reconcile: read caBundle and store → decide → write the state (if it changed) → publish → serve. */
  const syncOnce = async (): Promise<Decision> => {
    for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
      const published = await deps.caBundle.read();
      trusted = published.map((cas) => cas.map(fingerprint));
      const stored = await deps.store.read();
      const now = deps.clock.now();
      const d = decide({ state: stored?.state, published, now, host: deps.host, renewBeforeMs: deps.renewBeforeMs, graceMs }, gen);
      if (d.reasons.length) {
        const r = stored ? await deps.store.update(d.state, stored.version) : await deps.store.create(d.state);
        // Another replica wrote first: its decision stands, ours is re-made from what it wrote.
        if (r === 'conflict') continue;
        deps.log.info({ reasons: d.reasons, host: deps.host, serveFrom: d.state.next?.serveFrom.toISOString() }, 'webhook certificate state updated');
      }
      // Publish before serving: a replica never presents a leaf whose CA the apiserver may not hold. Written every
      // sync (the target skips unchanged configurations): it also sets the service/url, which may differ per start.
      await deps.caBundle.write(d.publish);
      const publishedNow = d.publish.map(fingerprint);
      trusted = trusted.map(() => publishedNow);
      if (d.serve) adopt(d.serve);
      lastSynced = deps.clock.now();
      return d;
    }
    throw new Error(`certificate store changed concurrently ${ATTEMPTS} times in a row`);
  };

  return {
    syncOnce,
    current: () => current,
    healthy: () => problem() === null,
    problem,
    onChange: (cb: (c: ServingPair) => void) => void listeners.push(cb),
    /** Sync as soon as allowed (≤ 1 per RESYNC_MIN_INTERVAL_MS), not at the next resync; a no-op before start(). */
    resync: () => {
      asked = true;
      wake?.abort();
    },
    start: async (signal: AbortSignal) => {
      while (!signal.aborted) {
        let wait = resyncMs;
        asked = false;
        try {
          const d = await syncOnce();
          // Wake for a due switch or promotion rather than up to a resync later (never busy-loop: ≥ 1 s).
          if (d.wakeAt) wait = Math.min(resyncMs, Math.max(1_000, d.wakeAt.getTime() - deps.clock.now().getTime()));
        } catch (err) {
          deps.log.error({ err }, 'certificate sync failed; retrying');
          wait = deps.retryMs ?? 5_000;
        }
        if (!asked) {
          wake = new AbortController();
          await deps.clock.sleep(wait, AbortSignal.any([signal, wake.signal]));
          wake = undefined;
        }
        // Asked for a resync: still never more often than the minimum interval.
        if (asked) await deps.clock.sleep(Math.min(wait, RESYNC_MIN_INTERVAL_MS), signal);
      }
    },
  };
}
