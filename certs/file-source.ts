// External certificates (WEBHOOK_CERT_WRITER=external): tls.crt / tls.key (and ca.crt) mounted from a Secret that
// cert-manager maintains. The kubelet swaps the files atomically via a symlink, which fs.watch does not reliably
// report, so the directory is polled; a pair that fails to load keeps the previous one serving.
import { readFile } from 'node:fs/promises';
import { createSecureContext } from 'node:tls';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { Clock } from './clock.js';
import { notAfter } from './verify.js';
import type { ServingPair } from './self-signed-source.js';

export function fileSource(deps: { dir: string; clock: Clock; log: Logger; pollMs?: number }) {
  const listeners: ((c: ServingPair) => void)[] = [];
  let current: ServingPair | undefined;

  /** Reads the pair; returns true when it changed. Throws when files are missing or do not form a valid pair. */
  const loadOnce = async (): Promise<boolean> => {
    const [cert, key] = await Promise.all([readFile(join(deps.dir, 'tls.crt'), 'utf8'), readFile(join(deps.dir, 'tls.key'), 'utf8')]);
    if (current && current.cert === cert && current.key === key) return false;
    // Mid-rotation the cert and key may briefly mismatch; createSecureContext rejects that and we retry next poll.
    createSecureContext({ key, cert });
    current = { key, cert, notAfter: notAfter(cert) };
    for (const l of listeners) l(current);
    return true;
  };

  return {
    loadOnce,
    /** The CA bundle next to the pair, if cert-manager mounted one. */
    caBundle: () => readFile(join(deps.dir, 'ca.crt'), 'utf8').catch(() => undefined),
    current: () => current,
    healthy: () => Boolean(current?.notAfter && current.notAfter > deps.clock.now()),
    onChange: (cb: (c: ServingPair) => void) => void listeners.push(cb),
    start: async (signal: AbortSignal) => {
      while (!signal.aborted) {
        try {
          if (await loadOnce()) deps.log.info({ dir: deps.dir }, 'loaded serving certificate from files');
        } catch (err) {
          deps.log.warn({ err, dir: deps.dir }, 'cannot load serving certificate files; keeping the previous pair');
        }
        await deps.clock.sleep(deps.pollMs ?? 10_000, signal);
      }
    },
  };
}
