// The embedded default certificate path (style §5): keep a self-signed CA + serving pair in a store (Secret or
// directory), renew it renewBefore ahead of expiry, publish the CA into the webhook configurations, and expose the
// pair as a CertificateSource. Resyncs every minute like upstream's webhook-controller.
import type { Logger } from 'pino';
import type { CertBundle } from './bundle.js';
import type { Clock } from './clock.js';
import { generateCA, generateServingCert } from './generate.js';
import type { CertStore } from './store.js';
import { nextBundle, notAfter, regenerationReason } from './verify.js';

export interface ServingPair {
  key: string;
  cert: string;
  notAfter?: Date;
}

export interface SelfSignedDeps {
  store: CertStore;
  /** DNS name (or IPv4 literal) the serving certificate must be valid for. */
  host: string;
  renewBeforeMs: number;
  clock: Clock;
  log: Logger;
  /** Called with the PEM CA after every successful sync (patches the webhook configurations' caBundle). */
  publishCA?: (caPem: string) => Promise<void>;
  resyncMs?: number;
  retryMs?: number;
  generate?: { ca: typeof generateCA; serving: typeof generateServingCert };
}

const EMPTY: CertBundle = { caKey: '', caCert: '', key: '', cert: '' };

export function selfSignedSource(deps: SelfSignedDeps) {
  const gen = deps.generate ?? { ca: generateCA, serving: generateServingCert };
  const listeners: ((c: ServingPair) => void)[] = [];
  let current: ServingPair | undefined;

  const adopt = (b: CertBundle) => {
    if (current && current.cert === b.cert && current.key === b.key) return;
    current = { key: b.key, cert: b.cert, notAfter: notAfter(b.cert) };
    for (const l of listeners) l(current);
  };

  /** One reconcile: read → create or renew if needed → adopt → publish the CA. */
  const syncOnce = async (): Promise<void> => {
    const now = deps.clock.now();
    let stored = await deps.store.read();
    if (!stored) {
      const fresh = nextBundle(EMPTY, deps.host, now, gen);
      if ((await deps.store.create(fresh)) === 'created') {
        deps.log.info({ host: deps.host }, 'created webhook certificates');
        stored = { bundle: fresh };
      } else {
        // Another replica won the create race: use what it wrote.
        stored = await deps.store.read();
        if (!stored) throw new Error('certificate store reported a conflict but holds nothing');
      }
    }
    let bundle = stored.bundle;
    const reason = regenerationReason(bundle, deps.host, now, deps.renewBeforeMs);
    if (reason) {
      bundle = nextBundle(bundle, deps.host, now, gen);
      await deps.store.update(bundle, stored.version);
      deps.log.info({ reason, host: deps.host }, 'renewed webhook certificates');
    }
    adopt(bundle);
    await deps.publishCA?.(bundle.caCert);
  };

  return {
    syncOnce,
    current: () => current,
    healthy: () => Boolean(current?.notAfter && current.notAfter > deps.clock.now()),
    onChange: (cb: (c: ServingPair) => void) => void listeners.push(cb),
    start: async (signal: AbortSignal) => {
      while (!signal.aborted) {
        let wait = deps.resyncMs ?? 60_000;
        try {
          await syncOnce();
        } catch (err) {
          deps.log.error({ err }, 'certificate sync failed; retrying');
          wait = deps.retryMs ?? 5_000;
        }
        await deps.clock.sleep(wait, signal);
      }
    },
  };
}
