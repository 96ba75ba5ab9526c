// workloadspread-controller (spec/availability-guards.md §14): keyed by WorkloadSpread; woken by its own changes, by
// pods it placed (created, deleted, gone inactive or changed version), and by its workload's replica or revision
// changes; the Adaptive strategy's unschedulable pods are deleted. Runs with FEATURE_GATES WorkloadSpread (default on).
import type { KubernetesObject, V1Node } from '@kubernetes/client-node';
import type { Pod } from '../../shared/api/meta.js';
import { PodDeletionCostAnnotation, type WorkloadSpread } from '../../shared/api/workload-spread.js';
import { podMatchedWorkloadSpread } from '../../shared/domain/workloadspread/annotation.js';
import { controllerOf, isPodActive, podVersion } from '../../shared/domain/workloadspread/pod-version.js';
import type { Workload } from '../../shared/domain/workloadspread/replicas.js';
import { parseGroupVersion } from '../../shared/domain/workloadspread/targets.js';
import { objectKey } from '../../shared/kube/keys.js';
import { resources, withTypeMeta, type Resource } from '../../shared/kube/resources.js';
import { OwnerIndex } from '../cloneset/owner-index.js';
import type { Controller } from '../types.js';
import { reconcileWorkloadSpread } from './reconcile.js';

const FIELD_MANAGER = 'kruise-ts-workloadspread';

/** What of a workload wakes its WorkloadSpread (§14.1): replicas, and the rollout signals of CloneSet and Deployment. */
function workloadSignature(kind: string, w: Workload): string {
  const spec = w.spec ?? {};
  if (kind === 'Job') return String(spec.parallelism);
  if (kind === 'CloneSet') return `${spec.replicas}|${w.status?.updateRevision !== w.status?.currentRevision}|${w.status?.updateRevision}`;
  if (kind === 'Deployment') return `${spec.replicas}|${w.metadata?.annotations?.['deployment.kubernetes.io/revision']}`;
  return String(spec.replicas);
}

export const workloadSpreadController: Controller = {
  name: 'workloadspread-controller',
  workers: 3,
  featureGate: 'WorkloadSpread',
  setup(deps, queue) {
    const spreads = deps.informers.cache<WorkloadSpread & KubernetesObject>(resources.workloadSpreads);
    const pods = deps.informers.cache<Pod & KubernetesObject>(resources.pods);
    const nodes = deps.informers.cache<V1Node & KubernetesObject>(resources.nodes);
    const watched: Record<string, { cache: ReturnType<typeof deps.informers.cache<Workload & KubernetesObject>>; group: string; resource: Resource }> = {
      CloneSet: { cache: deps.informers.cache(resources.cloneSets), group: 'apps.kruise.io', resource: resources.cloneSets },
      Deployment: { cache: deps.informers.cache(resources.deployments), group: 'apps', resource: resources.deployments },
      ReplicaSet: { cache: deps.informers.cache(resources.replicaSets), group: 'apps', resource: resources.replicaSets },
      Job: { cache: deps.informers.cache(resources.jobs), group: 'batch', resource: resources.jobs },
    };
    const podIndex = new OwnerIndex();
    const rsIndex = new OwnerIndex();
    const events = deps.events('workloadspread-controller');

    spreads.onChange((ws) => queue.add(objectKey(ws)));

    // A pod matters when it appears, goes, turns inactive or changes version; its deletion-cost patch does not.
    const podSeen = new Map<string, string>();
    pods.onChange((pod) => {
      const key = objectKey(pod);
      const live = pods.get(key);
      podIndex.update(key, live);
      const m = podMatchedWorkloadSpread(pod);
      const sig = live && m ? `${m.name}|${isPodActive(live)}|${podVersion(live)}` : undefined;
      const before = podSeen.get(key);
      if (sig === undefined) podSeen.delete(key);
      else podSeen.set(key, sig);
      if (m?.name && sig !== before) queue.add(`${pod.metadata?.namespace ?? ''}/${m.name}`);
    });

    // What the caches already hold (a cache another controller started first has listed before this subscribed).
    for (const p of pods.list()) podIndex.update(objectKey(p), p);

    /** The first non-deleting WorkloadSpread of the namespace naming this workload (any version of its group). */
    const spreadFor = (namespace: string, group: string, kind: string, name: string) =>
      spreads.list().find((ws) => ws.metadata?.namespace === namespace && !ws.metadata.deletionTimestamp && ws.spec?.targetRef?.kind === kind
        && ws.spec.targetRef.name === name && parseGroupVersion(ws.spec.targetRef.apiVersion)?.group === group);
    for (const [kind, w] of Object.entries(watched)) {
      const seen = new Map<string, string>();
      w.cache.onChange((obj) => {
        const key = objectKey(obj);
        const live = w.cache.get(key);
        if (kind === 'ReplicaSet') rsIndex.update(key, live);
        const sig = live ? workloadSignature(kind, live) : undefined;
        const changed = sig !== seen.get(key);
        if (sig === undefined) seen.delete(key);
        else seen.set(key, sig);
        if (!changed) return;
        const ns = obj.metadata?.namespace ?? '';
        const owner = kind === 'ReplicaSet' ? controllerOf(obj) : undefined;
        const ws = spreadFor(ns, w.group, kind, obj.metadata?.name ?? '')
          ?? (owner?.kind === 'Deployment' ? spreadFor(ns, 'apps', 'Deployment', owner.name) : undefined);
        if (ws) queue.add(objectKey(ws));
      });
    }

    for (const rs of watched.ReplicaSet!.cache.list()) rsIndex.update(objectKey(rs), rs);

    const podsOf = (uid: string): Pod[] => podIndex.keys(uid).map((k) => pods.get(k)).filter((p): p is Pod & KubernetesObject => !!p && controllerOf(p)?.uid === uid);
    return async (key) => {
      const ws = spreads.get(key);
      if (!ws) return;
      return reconcileWorkloadSpread(ws, {
        workload: async (kind, group, namespace, name) => {
          const cached = watched[kind];
          if (cached && cached.group === group) return cached.cache.get(`${namespace}/${name}`);
          // StatefulSets are read when needed, not watched (upstream does not watch them either, §18 #13).
          if (kind === 'StatefulSet') return deps.rest.find<Workload & KubernetesObject>(group === 'apps' ? resources.statefulSets : resources.advancedStatefulSets, { namespace, name });
          return undefined;
        },
        podsControlledBy: podsOf,
        replicaSetsControlledBy: (uid) => rsIndex.keys(uid).map((k) => watched.ReplicaSet!.cache.get(k)).filter((r): r is Workload & KubernetesObject => !!r && controllerOf(r)?.uid === uid),
        patchDeletionCost: async (pod, cost) => {
          await deps.rest.patch(resources.pods, { namespace: pod.metadata?.namespace ?? '', name: pod.metadata?.name ?? '' }, 'strategic',
            { metadata: { annotations: { [PodDeletionCostAnnotation]: cost } } }, { fieldManager: FIELD_MANAGER });
        },
        patchPod: async (pod, patch) => {
          await deps.rest.patch(resources.pods, { namespace: pod.metadata?.namespace ?? '', name: pod.metadata?.name ?? '' }, 'strategic', patch, { fieldManager: FIELD_MANAGER });
        },
        node: (name) => nodes.get(name),
        deletePod: async (pod) => {
          await deps.rest.delete(resources.pods, { namespace: pod.metadata?.namespace ?? '', name: pod.metadata?.name ?? '' }, { ...(pod.metadata?.uid ? { uid: pod.metadata.uid } : {}) });
        },
        writeStatus: async (w, status) => {
          await deps.rest.replace(resources.workloadSpreads, withTypeMeta(resources.workloadSpreads, { ...w, status } as WorkloadSpread & KubernetesObject), { subresource: 'status', fieldManager: FIELD_MANAGER });
        },
        event: (w, type, reason, message) => events.event(withTypeMeta(resources.workloadSpreads, w as KubernetesObject), type, reason, message),
        now: () => new Date(deps.clock.now()),
      });
    };
  },
};
