// Informer-backed context gatherers for the admission handlers. Handlers read these synchronously on the request path;
// only the CRR handler's Pod/Node lookups go to the API server (watching every Pod cluster-wide would cost far more
// memory than the rare CRR create saves in latency). The informers are the shared REST list-watch of the controllers
// and the daemon (shared/kube/informer-factory.ts): paged lists, bookmarks, timeouts, an idle watch re-opened.
import type { V1ConfigMap, V1ControllerRevision, V1Namespace, V1Node, KubernetesObject } from '@kubernetes/client-node';
import type { Pod } from '../shared/api/meta.js';
import type { PodUnavailableBudget } from '../shared/api/pod-unavailable-budget.js';
import type { SidecarSet } from '../shared/api/sidecarset.js';
import type { WorkloadSpread } from '../shared/api/workload-spread.js';
import { cacheHealth, type CacheHealth } from '../shared/kube/cache-health.js';
import type { Cache } from '../shared/kube/informer.js';
import type { InformerFactory } from '../shared/kube/informer-factory.js';
import { resources } from '../shared/kube/resources.js';
import type { KubeRest } from '../shared/kube/rest.js';
import { workloadSpreadRest, type WorkloadSpreadApi } from './workload-spread-rest.js';

export const KRUISE_CONFIGURATION = 'kruise-configuration';
export const PATCH_METADATA_WHITELIST_KEY = 'SidecarSet_PatchPodMetadata_WhiteList';
const SIDECARSET_NAME_LABEL = 'kruise.io/sidecarset-name';
const CUSTOM_VERSION_LABEL = 'apps.kruise.io/sidecarset-custom-version';

export interface AdmissionCaches extends CacheHealth {
  /**
   * Every SidecarSet, in name order (spec §9 note 2: upstream uses informer order; we pick a stable one). The same
   * frozen array until a SidecarSet changes, so per-review work can be keyed on it.
   */
  sidecarSets(): readonly SidecarSet[];
  namespaceLabels(name: string): Record<string, string> | undefined;
  /** ControllerRevision in the kruise namespace by name. */
  revisionByName(name: string): V1ControllerRevision | undefined;
  /** Highest `.revision` among the SidecarSet's revisions carrying that custom version label (spec §2.3). */
  revisionByCustomVersion(sidecarSetName: string, customVersion: string): V1ControllerRevision | undefined;
  /** Every revision of the SidecarSet carrying that custom version label, in cache order. */
  revisionsByCustomVersion(sidecarSetName: string, customVersion: string): V1ControllerRevision[];
  /** Raw whitelist JSON from ConfigMap kruise-configuration, or undefined when the map or key is absent. */
  patchMetadataWhitelist(): string | undefined;
  fetchPod(namespace: string, name: string): Promise<Pod | undefined>;
  fetchNode(name: string): Promise<V1Node | undefined>;
  /** The PodUnavailableBudgets of a namespace (cache order); empty while both PUB gates are off. */
  pubs(namespace: string): readonly PodUnavailableBudget[];
  pub(namespace: string, name: string): PodUnavailableBudget | undefined;
  /** The namespace's WorkloadSpreads in cache order (the same array until one changes). */
  workloadSpreadsIn(namespace: string): readonly WorkloadSpread[];
  /** WorkloadSpread API calls of the pod webhook (webhook/handlers/workload-spread-pod.ts). */
  workloadSpreadApi: WorkloadSpreadApi;
  /**
   * Resolves once the SidecarSet cache has listed; rejects after `ms` (the review then answers 500). The handlers that read SidecarSets
   * wait on it, as upstream's cache reads block until synced, because readiness does not (`readinessHealth`).
   */
  sidecarSetsSynced(ms: number): Promise<void>;
  /**
   * What readiness waits for: every cache but the SidecarSets'. SidecarSets stored as v1alpha1 (written by OpenKruise
   * v1.8) list as v1beta1 only through /convert, which the apiserver reaches through the Service, i.e. through a ready
   * replica: a readiness that waited for them would never come.
   */
  readinessHealth: CacheHealth;
}

export interface CacheSet {
  sidecarSets: Cache<SidecarSet>;
  namespaces: Cache<V1Namespace>;
  revisions: Cache<V1ControllerRevision>;
  configMaps: Cache<V1ConfigMap>;
  /** Absent: no PUB informer (both PUB gates off, or a test/benchmark without PUBs). */
  pubs?: Cache<PodUnavailableBudget & KubernetesObject>;
  /** Absent (offline callers, tests of other kinds): no WorkloadSpread anywhere. */
  workloadSpreads?: Cache<WorkloadSpread>;
}

export type { WorkloadSpreadApi };

export interface Fetchers extends Partial<WorkloadSpreadApi> {
  fetchPod(namespace: string, name: string): Promise<Pod | undefined>;
  fetchNode(name: string): Promise<V1Node | undefined>;
}

/** A lookup of the same list, grouped by namespace once per list (caches hand out one array until a change). */
function byNamespace<T extends { metadata?: { namespace?: string } }>(list: () => readonly T[]): (ns: string) => readonly T[] {
  let seen: readonly T[] | undefined;
  let index = new Map<string, T[]>();
  return (ns) => {
    const items = list();
    if (items !== seen) {
      seen = items;
      index = new Map();
      for (const i of items) {
        const k = i.metadata?.namespace ?? '';
        const group = index.get(k);
        if (group) group.push(i);
        else index.set(k, [i]);
      }
    }
    return index.get(ns) ?? [];
  };
}

const NONE: readonly WorkloadSpread[] = Object.freeze([]);
const offline = (call: string) => (): Promise<never> => Promise.reject(new Error(`${call}: no API server connection here`));

/** Lookups over already-running caches; pure apart from reading them, so tests pass static caches. */
export function admissionCaches(caches: CacheSet, fetchers: Fetchers): AdmissionCaches {
  let sorted: readonly SidecarSet[] | undefined;
  caches.sidecarSets.onChange(() => (sorted = undefined));
  const byCustomVersion = (sidecarSetName: string, customVersion: string) =>
    caches.revisions.list().filter((r) => {
      const labels = r.metadata?.labels ?? {};
      return labels[SIDECARSET_NAME_LABEL] === sidecarSetName && labels[CUSTOM_VERSION_LABEL] === customVersion;
    });
  // PUBs by namespace, rebuilt on the first read after a change (one pass over the list).
  let pubIndex: Map<string, PodUnavailableBudget[]> | undefined;
  const pubCache = caches.pubs ?? staticCache<PodUnavailableBudget & KubernetesObject>([]);
  pubCache.onChange(() => (pubIndex = undefined));
  const pubsByNamespace = () => {
    if (pubIndex) return pubIndex;
    const index = new Map<string, PodUnavailableBudget[]>();
    for (const p of pubCache.list()) {
      const ns = p.metadata?.namespace ?? '';
      if (!index.has(ns)) index.set(ns, []);
      index.get(ns)!.push(p);
    }
    return (pubIndex = index);
  };
  const byName = (a: SidecarSet, b: SidecarSet) => ((a.metadata?.name ?? '') < (b.metadata?.name ?? '') ? -1 : 1);
  return {
    sidecarSets: () => (sorted ??= Object.freeze([...caches.sidecarSets.list()].sort(byName))),
    namespaceLabels: (name) => {
      const ns = caches.namespaces.get(name);
      return ns ? (ns.metadata?.labels ?? {}) : undefined;
    },
    revisionByName: (name) => caches.revisions.list().find((r) => r.metadata?.name === name),
    revisionByCustomVersion: (sidecarSetName, customVersion) => {
      let best: V1ControllerRevision | undefined;
      for (const r of byCustomVersion(sidecarSetName, customVersion)) if (!best || r.revision > best.revision) best = r;
      return best;
    },
    revisionsByCustomVersion: (sidecarSetName, customVersion) => byCustomVersion(sidecarSetName, customVersion),
    patchMetadataWhitelist: () => caches.configMaps.list().find((c) => c.metadata?.name === KRUISE_CONFIGURATION)?.data?.[PATCH_METADATA_WHITELIST_KEY],
    fetchPod: fetchers.fetchPod,
    fetchNode: fetchers.fetchNode,
    pubs: (namespace) => pubsByNamespace().get(namespace) ?? [],
    pub: (namespace, name) => pubCache.get(`${namespace}/${name}`),
    workloadSpreadsIn: byNamespace(() => caches.workloadSpreads?.list() ?? NONE),
    workloadSpreadApi: {
      fetchWorkload: fetchers.fetchWorkload ?? offline('fetchWorkload'),
      fetchWorkloadSpread: fetchers.fetchWorkloadSpread ?? offline('fetchWorkloadSpread'),
      updateWorkloadSpreadStatus: fetchers.updateWorkloadSpreadStatus ?? offline('updateWorkloadSpreadStatus'),
    },
    sidecarSetsSynced: (ms) => {
      if (caches.sidecarSets.isSynced()) return Promise.resolve();
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`the SidecarSet cache has not listed within ${ms} ms (SidecarSets stored as v1alpha1 list through /convert); retry`)), ms);
      });
      return Promise.race([caches.sidecarSets.synced, late]).finally(() => clearTimeout(timer));
    },
    readinessHealth: cacheHealth(() => Object.entries(caches).filter(([name, c]) => name !== 'sidecarSets' && c !== undefined) as never),
    ...cacheHealth(() => Object.entries(caches).filter(([, c]) => c !== undefined) as never),
  };
}

/** A cache over a fixed list, for tests and the benchmark. */
export function staticCache<T extends KubernetesObject>(items: T[]): Cache<T> {
  return {
    synced: Promise.resolve(),
    isSynced: () => true,
    list: () => items,
    get: (key) => items.find((i) => (i.metadata?.namespace ? `${i.metadata.namespace}/${i.metadata.name}` : i.metadata?.name) === key),
    onChange: () => {},
  };
}

/**
 * The four informers (sidecarsets, namespaces, and the controllerrevisions and kruise-configuration ConfigMap of the
 * kruise namespace), plus PodUnavailableBudgets and WorkloadSpreads when their gates are on, from `informers`, and Pod/Node lookups through `rest`, whose every request has a timeout.
 */
export function startAdmissionCaches(informers: InformerFactory, rest: KubeRest, namespace: string, o: { pubs?: boolean; workloadSpreads?: boolean } = {}): AdmissionCaches & { cacheSet: CacheSet } {
  const caches: CacheSet = {
    // Only with a PUB gate on: the PUB CRD need not exist otherwise (upstream registers /validate-pod only then too).
    ...(o.pubs ? { pubs: informers.cache<PodUnavailableBudget & KubernetesObject>(resources.podUnavailableBudgets) } : {}),
    sidecarSets: informers.cache<SidecarSet & KubernetesObject>(resources.sidecarSets),
    namespaces: informers.cache<V1Namespace & KubernetesObject>(resources.namespaces),
    revisions: informers.cache<V1ControllerRevision & KubernetesObject>(resources.controllerRevisions, { namespace }),
    configMaps: informers.cache<V1ConfigMap & KubernetesObject>(resources.configMaps, { namespace, fieldSelector: `metadata.name=${KRUISE_CONFIGURATION}` }),
    // Only with the WorkloadSpread gate on, for the same reason.
    ...(o.workloadSpreads ? { workloadSpreads: informers.cache<WorkloadSpread & KubernetesObject>(resources.workloadSpreads) } : {}),
  };
  // cacheSet: the informers themselves, whose snapshots the admission workers read (webhook/pool/snapshot.ts).
  return { cacheSet: caches, ...admissionCaches(caches, {
    fetchPod: async (ns, name) => {
      try { return await rest.find<Pod & KubernetesObject>(resources.pods, { namespace: ns, name }); } catch (err) { throw new Error(`get pod ${ns}/${name}`, { cause: err }); }
    },
    fetchNode: async (name) => {
      try { return await rest.find<V1Node & KubernetesObject>(resources.nodes, { name }); } catch (err) { throw new Error(`get node ${name}`, { cause: err }); }
    },
    ...workloadSpreadRest(rest),
  }) };
}
