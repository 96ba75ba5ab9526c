// Pull Secrets for the puller, read from the informer cache of kruise-daemon-config (KRUISE_DAEMON_CONFIG_NS, the
// only namespace it may read, manifests/base/rbac-daemon.yaml; not the daemon's own). References elsewhere, or to Secrets that do not exist, are skipped and
// logged by reference only (spec/daemon-and-controllers.md §2.5: an unreadable secret is skipped, not fatal).
import type { ReferenceObject } from '../../shared/api/node-image.js';
import type { SecretLike } from './secrets.js';

export interface SecretCache {
  /** `namespace/name`. */
  get(key: string): SecretLike | undefined;
}

export function secretLookup(
  cache: SecretCache,
  namespace: string,
  log: { warn(obj: object, msg: string): void },
): (refs: ReferenceObject[]) => Promise<SecretLike[]> {
  return async (refs) => {
    const found: SecretLike[] = [];
    for (const ref of refs) {
      const where = { namespace: ref.namespace, name: ref.name };
      if (!ref.name || ref.namespace !== namespace) {
        log.warn({ pullSecret: where, readable: namespace }, 'pull secret outside the daemon namespace; skipped');
        continue;
      }
      const secret = cache.get(`${namespace}/${ref.name}`);
      if (secret) found.push(secret);
      else log.warn({ pullSecret: where }, 'pull secret not found; skipped');
    }
    return found;
  };
}
