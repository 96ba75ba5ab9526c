// The server's view of its certificate, shaped like cert-manager's pkg/server/tls CertificateSource: whoever supplies
// the pair (self-signed bootstrap, or files mounted by cert-manager), rotation reaches the listening server through
// setSecureContext — new handshakes get the new pair, open connections finish undisturbed, nothing restarts.
import type { SecureContextOptions } from 'node:tls';
import type { Logger } from 'pino';
import type { WebhookMetrics } from './metrics.js';
import { TLS_OPTIONS } from './tls-options.js';

export interface ServingCert {
  key: string;
  cert: string;
  notAfter?: Date;
}

export interface CertificateSource {
  current(): ServingCert | undefined;
  /** Runs until signal aborts; the first pair (if obtainable) is loaded before the returned promise settles or soon after. */
  start(signal: AbortSignal): Promise<void>;
  /** True while a usable, unexpired pair is loaded (and, where the source can tell, still trusted by the apiserver). */
  healthy(): boolean;
  /** Why the source is not healthy, when it can say more than "no valid serving certificate". */
  problem?(): string | null;
  onChange(cb: (c: ServingCert) => void): void;
}

export interface SecureContextTarget {
  setSecureContext(options: SecureContextOptions): void;
}

/** Resolves with the first pair the source yields (immediately if it already has one). */
export function firstCertificate(source: CertificateSource, signal: AbortSignal): Promise<ServingCert | undefined> {
  const now = source.current();
  if (now) return Promise.resolve(now);
  return new Promise((resolve) => {
    source.onChange((c) => resolve(c));
    signal.addEventListener('abort', () => resolve(undefined), { once: true });
  });
}

/** Pushes every rotation into the server and the expiry gauge. */
export function attachCertificateSource(server: SecureContextTarget, source: CertificateSource, deps: { log: Logger; metrics: WebhookMetrics }): void {
  const apply = (c: ServingCert) => {
    try {
      server.setSecureContext({ ...TLS_OPTIONS, key: c.key, cert: c.cert });
    } catch (err) {
      // A bad pair must not take the server down; the previous context keeps serving.
      deps.log.error({ err }, 'rejected new serving certificate; keeping the previous one');
      return;
    }
    if (c.notAfter) deps.metrics.certExpiry.set(c.notAfter.getTime() / 1000);
    deps.log.info({ notAfter: c.notAfter?.toISOString() }, 'serving certificate loaded');
  };
  const c = source.current();
  if (c?.notAfter) deps.metrics.certExpiry.set(c.notAfter.getTime() / 1000);
  source.onChange(apply);
}
