// The embedded default certificate path (style §5): keep a self-signed CA + serving pair in a store (Secret or
// directory), rotate it without a failed handshake (rotation.ts: publish the new CA next to the old one, switch after
// a grace period, drop the old CA after another), publish the CAs into the webhook configurations, and expose the
// served pair as a CertificateSource. Resyncs every minute like upstream's webhook-controller, sooner when a
// rotation step is due.
import type { Logger } from 'pino';
import type { CaBundleTarget } from './ca-bundle.js';
import type { Clock } from './clock.js';
import { generateCA, generateServingCert } from './generate.js';
import { decide, type Decision } from './rotation.js';
import type { CertStore } from './store.js';
import { notAfter } from './verify.js';

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

export function selfSignedSource(deps: SelfSignedDeps) {
  const gen = deps.generate ?? { ca: generateCA, serving: generateServingCert };
  const resyncMs = deps.resyncMs ?? 60_000;
  const graceMs = deps.graceMs ?? 2 * resyncMs;
  const listeners: ((c: ServingPair) => void)[] = [];
  let current: ServingPair | undefined;

  const adopt = (pair: { key: string; cert: string }) => {
    if (current && current.cert === pair.cert && current.key === pair.key) return;
    current = { key: pair.key, cert: pair.cert, notAfter: notAfter(pair.cert) };
    for (const l of listeners) l(current);
  };

  /** One reconcile: read caBundle and store → decide → write the state (if it changed) → publish → serve. */
  const syncOnce = async (): Promise<Decision> => {
    for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
      const published = await deps.caBundle.read();
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
      if (d.serve) adopt(d.serve);
      return d;
    }
    throw new Error(`certificate store changed concurrently ${ATTEMPTS} times in a row`);
  };

  return {
    syncOnce,
    current: () => current,
    healthy: () => Boolean(current?.notAfter && current.notAfter > deps.clock.now()),
    onChange: (cb: (c: ServingPair) => void) => void listeners.push(cb),
    start: async (signal: AbortSignal) => {
      while (!signal.aborted) {
        let wait = resyncMs;
        try {
          const d = await syncOnce();
          // Wake for a due switch or promotion rather than up to a resync later (never busy-loop: ≥ 1 s).
          if (d.wakeAt) wait = Math.min(resyncMs, Math.max(1_000, d.wakeAt.getTime() - deps.clock.now().getTime()));
        } catch (err) {
          deps.log.error({ err }, 'certificate sync failed; retrying');
          wait = deps.retryMs ?? 5_000;
        }
        await deps.clock.sleep(wait, signal);
      }
    },
  };
}
