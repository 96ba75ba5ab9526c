// An in-memory CertStore with the Secret's optimistic concurrency (a version bumped on every write), for tests of
// several replicas on one store. `beforeWrite` lets a test slip another replica's write in between read and write.
import type { CertState } from './state.js';
import type { CertStore, Stored } from './store.js';

export function memoryStore(opts: { beforeWrite?: () => void } = {}) {
  let stored: Stored | undefined;
  let version = 0;
  const calls: string[] = [];
  const clone = (s: CertState): CertState => structuredClone(s);
  const store: CertStore & { calls: string[]; get(): Stored | undefined; set(s: CertState | undefined): void } = {
    calls,
    get: () => stored,
    /** Replaces the stored state out of band (a Secret deleted or edited by hand). */
    set: (s) => void (stored = s && { state: clone(s), version: String(++version) }),
    read: async () => (calls.push('read'), stored && { state: clone(stored.state), version: stored.version }),
    create: async (state) => {
      calls.push('create');
      opts.beforeWrite?.();
      if (stored) return 'conflict';
      stored = { state: clone(state), version: String(++version) };
      return 'created';
    },
    update: async (state, v) => {
      calls.push('update');
      opts.beforeWrite?.();
      if (!stored || v !== stored.version) return 'conflict';
      stored = { state: clone(state), version: String(++version) };
      return 'updated';
    },
  };
  return store;
}
