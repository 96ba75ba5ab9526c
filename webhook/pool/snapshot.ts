// The admission caches as the workers see them: the main thread owns the informers and pushes a snapshot of each
// cache to every worker when it changes (debounced; only the parts that changed), and a new worker gets all of it
// before it takes a request. A snapshot is cloned once per worker per change, never per request; in the worker each
// part is a plain array behind the same Cache interface the informers offer, so admissionCaches (caches.ts) and the
// handlers run there unchanged.
import type { V1ConfigMap, V1ControllerRevision, V1Namespace } from '@kubernetes/client-node';
import type { PodUnavailableBudget } from '../../shared/api/pod-unavailable-budget.js';
import type { SidecarSet } from '../../shared/api/sidecarset.js';
import type { WorkloadSpread } from '../../shared/api/workload-spread.js';
import type { Cache } from '../../shared/kube/informer.js';
import type { CacheSet } from '../caches.js';

export interface SnapshotParts {
  sidecarSets: readonly SidecarSet[];
  /** Whether the SidecarSet cache has listed (the handlers that read SidecarSets wait for it). */
  sidecarSetsSynced: boolean;
  /** Each namespace's name and labels: all the handlers read of a namespace. */
  namespaces: ReadonlyArray<readonly [string, Record<string, string>]>;
  revisions: readonly V1ControllerRevision[];
  configMaps: readonly V1ConfigMap[];
  /** PodUnavailableBudgets (the pod webhook reads their status; the spend itself goes to main, rpc.ts). */
  pubs?: readonly PodUnavailableBudget[];
  workloadSpreads: readonly WorkloadSpread[];
}

type Part = keyof SnapshotParts;

const read: { [K in Part]: (set: CacheSet) => SnapshotParts[K] } = {
  sidecarSets: (s) => s.sidecarSets.list(),
  sidecarSetsSynced: (s) => s.sidecarSets.isSynced(),
  namespaces: (s) => s.namespaces.list().map((n) => [n.metadata?.name ?? '', n.metadata?.labels ?? {}] as const),
  revisions: (s) => s.revisions.list(),
  configMaps: (s) => s.configMaps.list(),
  pubs: (s) => s.pubs?.list() ?? [],
  workloadSpreads: (s) => s.workloadSpreads?.list() ?? [],
};

export interface SnapshotSource {
  /** Every part, for a worker that starts. */
  full(): SnapshotParts;
  stop(): void;
}

/**
 * Watches `set` and calls `push` with the parts that changed, at most once per `debounceMs` (a relist of a thousand
 * namespaces is one push, not a thousand).
 */
export function snapshotSource(set: CacheSet, push: (parts: Partial<SnapshotParts>) => void, debounceMs = 20): SnapshotSource {
  const dirty = new Set<Part>();
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const mark = (...parts: Part[]) => {
    if (stopped) return;
    for (const p of parts) dirty.add(p);
    timer ??= setTimeout(() => {
      timer = undefined;
      const parts: Partial<Record<Part, unknown>> = {};
      for (const p of dirty) parts[p] = read[p](set);
      dirty.clear();
      push(parts as Partial<SnapshotParts>);
    }, debounceMs);
  };
  set.sidecarSets.onChange(() => mark('sidecarSets'));
  void set.sidecarSets.synced.then(() => mark('sidecarSets', 'sidecarSetsSynced'));
  set.namespaces.onChange(() => mark('namespaces'));
  set.revisions.onChange(() => mark('revisions'));
  set.configMaps.onChange(() => mark('configMaps'));
  set.pubs?.onChange(() => mark('pubs'));
  set.workloadSpreads?.onChange(() => mark('workloadSpreads'));
  return {
    full: () => ({ sidecarSets: read.sidecarSets(set), sidecarSetsSynced: read.sidecarSetsSynced(set), namespaces: read.namespaces(set), revisions: read.revisions(set), configMaps: read.configMaps(set), pubs: read.pubs(set), workloadSpreads: read.workloadSpreads(set) }),
    stop: () => { stopped = true; clearTimeout(timer); },
  };
}

/** A Cache over an array the snapshot replaces; onChange callbacks hear each replacement. */
function arrayCache<T>(key: (item: T) => string): Cache<T> & { replace(items: readonly T[]): void } {
  let items: readonly T[] = [];
  let byKey: Map<string, T> | undefined;
  const listeners: Array<() => void> = [];
  return {
    synced: Promise.resolve(),
    isSynced: () => true,
    list: () => items,
    get: (k) => (byKey ??= new Map(items.map((i) => [key(i), i]))).get(k),
    onChange: (cb) => void listeners.push(() => cb(undefined as never, 'update' as never)),
    replace(next) {
      items = next;
      byKey = undefined;
      for (const l of listeners) l();
    },
  };
}

const nameOf = (o: { metadata?: { name?: string; namespace?: string } }) => (o.metadata?.namespace ? `${o.metadata.namespace}/${o.metadata.name}` : (o.metadata?.name ?? ''));

/** The worker's side: a CacheSet over the snapshot, and `apply` for each push. */
export function snapshotCacheSet(): { set: CacheSet; apply(parts: Partial<SnapshotParts>): void } {
  const sidecarSets = arrayCache<SidecarSet>(nameOf);
  const namespaces = arrayCache<V1Namespace>(nameOf);
  const revisions = arrayCache<V1ControllerRevision>(nameOf);
  const configMaps = arrayCache<V1ConfigMap>(nameOf);
  const pubs = arrayCache<PodUnavailableBudget>(nameOf);
  const workloadSpreads = arrayCache<WorkloadSpread>(nameOf);
  let synced = false;
  let markSynced!: () => void;
  const sidecarSetsSynced = new Promise<void>((resolve) => (markSynced = resolve));
  const set: CacheSet = {
    sidecarSets: { ...sidecarSets, synced: sidecarSetsSynced, isSynced: () => synced },
    namespaces,
    revisions,
    configMaps,
    pubs: pubs as CacheSet['pubs'] & object,
    workloadSpreads,
  };
  return {
    set,
    apply(parts) {
      if (parts.sidecarSets) sidecarSets.replace(parts.sidecarSets);
      if (parts.namespaces) namespaces.replace(parts.namespaces.map(([name, labels]) => ({ metadata: { name, labels } })));
      if (parts.revisions) revisions.replace(parts.revisions);
      if (parts.configMaps) configMaps.replace(parts.configMaps);
      if (parts.pubs) pubs.replace(parts.pubs);
      if (parts.workloadSpreads) workloadSpreads.replace(parts.workloadSpreads);
      if (parts.sidecarSetsSynced && !synced) { synced = true; markSynced(); }
    },
  };
}
