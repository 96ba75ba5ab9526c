// List-then-watch over KubeRest, the source behind every shared informer (informer-factory.ts): client-go's
// reflector loop without client-node. A full list fills the store, a watch from the list's resourceVersion keeps
// it current; a watch the apiserver ends, or that went silent past its idle window (rest.ts WatchIdleError), is
// re-opened from the last version seen (bookmarks keep it fresh), and an expired version (410 Gone, or an ERROR
// event) relists. Any other failure is reported on 'error' and the loop stops: startInformer restarts it with
// backoff, and the restart watches on from the last version it had. Each answer from the apiserver (a list, a watch
// opened, an event or bookmark) is reported on 'alive', which startInformer turns into the cache's staleness.
import type { KubernetesListObject, KubernetesObject } from '@kubernetes/client-node';
import type { ChangeVerb, ListWatchSource } from './informer.js';
import type { Resource } from './resources.js';
import { WatchIdleError, type KubeRest, type ListOptions, type WatchEvent } from './rest.js';

export interface RestListWatchOptions<T extends KubernetesObject> {
  /** The full list (all pages); the store takes its items as they are. */
  list: () => Promise<KubernetesListObject<T>>;
  /** Applied to each watched object before it is stored (e.g. dropping managedFields). */
  transform?: (obj: T) => T;
  /** Seconds each watch asks the apiserver to run; client-go's reflector picks 5–10 min at random. */
  watchTimeoutSeconds?: () => number;
}

const keyOf = (obj: KubernetesObject) => `${obj.metadata?.namespace ?? ''}/${obj.metadata?.name ?? ''}`;
const sameVersion = (a: KubernetesObject, b: KubernetesObject) =>
  a.metadata?.resourceVersion !== undefined && a.metadata.resourceVersion === b.metadata?.resourceVersion;

export function restListWatch<T extends KubernetesObject>(rest: KubeRest, r: Resource, selectors: ListOptions, opts: RestListWatchOptions<T>): ListWatchSource<T> {
  const store = new Map<string, T>();
  const handlers: Record<ChangeVerb | 'error' | 'alive', Array<(x: never) => void>> = { add: [], update: [], delete: [], error: [], alive: [] };
  const emit = (verb: ChangeVerb, obj: T) => { for (const h of handlers[verb]) (h as (o: T) => void)(obj); };
  const alive = () => { for (const h of handlers.alive) (h as () => void)(); };
  const transform = opts.transform ?? ((o: T) => o);
  const timeout = opts.watchTimeoutSeconds ?? (() => 300 + Math.floor(Math.random() * 300));
  let resourceVersion = '';
  let run: AbortController | undefined;

  const upsert = (obj: T) => {
    const key = keyOf(obj);
    const old = store.get(key);
    if (old && sameVersion(old, obj)) return;
    store.set(key, obj);
    emit(old ? 'update' : 'add', obj);
  };

  const relist = async () => {
    const list = await opts.list();
    const seen = new Set<string>();
    for (const item of list.items) seen.add(keyOf(item));
    for (const [key, old] of store) {
      if (!seen.has(key)) { store.delete(key); emit('delete', old); }
    }
    for (const item of list.items) upsert(item);
    resourceVersion = list.metadata?.resourceVersion ?? '';
    alive();
  };

  const onEvent = (expired: () => void) => (e: WatchEvent<T>) => {
    if (e.type !== 'ERROR') alive();
    switch (e.type) {
      case 'ADDED':
      case 'MODIFIED':
        upsert(transform(e.object));
        break;
      case 'DELETED': {
        const key = keyOf(e.object);
        if (store.delete(key)) emit('delete', transform(e.object));
        break;
      }
      case 'BOOKMARK':
        break;
      case 'ERROR':
        // A Status: 410 Gone (compacted) or another failure; either way the stream ends here and we list again.
        expired();
        return;
    }
    const rv = e.object?.metadata?.resourceVersion;
    if (rv) resourceVersion = rv;
  };

  /** `settled` is called once: when the first watch opened, or the loop ended (error or stop) before that. */
  const watchLoop = async (signal: AbortSignal, settled: () => void) => {
    try { await loop(signal, settled); } finally { settled(); }
  };
  const loop = async (signal: AbortSignal, opened: () => void) => {
    while (!signal.aborted) {
      try {
        if (!resourceVersion) await relist();
        if (signal.aborted) return;
        const stream = new AbortController();
        const stopStream = () => stream.abort();
        signal.addEventListener('abort', stopStream, { once: true });
        try {
          await rest.watch<T>(r, { ...selectors, resourceVersion, timeoutSeconds: timeout(), onOpen: () => { alive(); opened(); } },
            onEvent(() => { resourceVersion = ''; stream.abort(); }), stream.signal);
        } catch (err) {
          // Silent past the idle window: a new watch from the same version (a 410 there relists).
          if (!(err instanceof WatchIdleError)) throw err;
        } finally {
          signal.removeEventListener('abort', stopStream);
        }
      } catch (err) {
        if (signal.aborted) return;
        if ((err as { code?: number }).code === 410) { resourceVersion = ''; continue; }
        for (const h of handlers.error) (h as (e: unknown) => void)(err);
        return;
      }
    }
  };

  return {
    on(verb: ChangeVerb | 'error' | 'alive', cb: (x: never) => void) { handlers[verb].push(cb); },
    /**
     * Resolves once the store holds a full list and the watch is open, or when that failed (reported on 'error'
     * first, so startInformer backs off); the watch then runs on by itself.
     */
    async start() {
      run?.abort();
      const ctl = new AbortController();
      run = ctl;
      await new Promise<void>((settled) => { void watchLoop(ctl.signal, settled); });
    },
    stop() {
      run?.abort();
      run = undefined;
      return Promise.resolve();
    },
    list: (namespace?: string) => {
      const all = [...store.values()];
      return namespace ? all.filter((o) => o.metadata?.namespace === namespace) : all;
    },
    get: (name: string, namespace?: string) => store.get(`${namespace ?? ''}/${name}`),
  } as ListWatchSource<T>;
}
