// podunavailablebudget-controller (spec/availability-guards.md §5): wires the watches (watches.ts) over PUBs, pods
// and the workloads whose replicas a PUB expects, and builds the reconcile (reconcile.ts). Runs with either PUB gate.
import type { Pod } from '../../shared/api/meta.js';
import { objectKey } from '../../shared/kube/keys.js';
import { resources } from '../../shared/kube/resources.js';
import type { Controller } from '../types.js';
import { OwnerIndex } from '../cloneset/owner-index.js';
import { pubBudget } from './budget.js';
import { pubReconciler } from './reconcile.js';
import { podEvent, workloadPub } from './watches.js';
import type { Workload, WorkloadCaches } from './workloads.js';

const WORKLOADS = [
  { kind: 'Deployment', apiVersion: 'apps/v1', resource: resources.deployments },
  { kind: 'StatefulSet', apiVersion: 'apps/v1', resource: resources.statefulSets },
  { kind: 'CloneSet', apiVersion: 'apps.kruise.io/v1alpha1', resource: resources.cloneSets },
] as const;

export const podUnavailableBudgetController: Controller = {
  name: 'podunavailablebudget-controller',
  workers: 3,
  featureGate: 'PodUnavailableBudgetDeleteGate',
  orFeatureGate: 'PodUnavailableBudgetUpdateGate',
  setup(deps, queue) {
    const { pubs, spender } = pubBudget(deps);
    const pods = deps.informers.cache<Pod & { metadata?: object }>(resources.pods);
    const replicaSets = deps.informers.cache<Workload>(resources.replicaSets);
    const byKind = {
      ReplicaSet: replicaSets,
      Deployment: deps.informers.cache<Workload>(resources.deployments),
      StatefulSet: deps.informers.cache<Workload>(resources.statefulSets),
      CloneSet: deps.informers.cache<Workload>(resources.cloneSets),
    };
    // Pods by controller-owner UID and by namespace; ReplicaSets by owner UID (upstream's field indexes).
    const podsByOwner = new OwnerIndex();
    const podsByNs = new Map<string, Set<string>>();
    const rsByOwner = new OwnerIndex();
    const last = new Map<string, Pod>();
    pods.onChange((changed) => {
      const key = objectKey(changed);
      const live = pods.get(key);
      podsByOwner.update(key, live);
      const ns = changed.metadata?.namespace ?? '';
      if (live) { if (!podsByNs.has(ns)) podsByNs.set(ns, new Set()); podsByNs.get(ns)!.add(key); }
      else { podsByNs.get(ns)?.delete(key); if (podsByNs.get(ns)?.size === 0) podsByNs.delete(ns); }
      const old = last.get(key);
      if (live) last.set(key, live); else last.delete(key);
      if (!live) return;
      const e = podEvent(old, live, (k) => pubs.get(k) !== undefined);
      if (e?.afterMs) queue.addAfter(e.key, e.afterMs); else if (e) queue.add(e.key);
    });
    replicaSets.onChange((rs) => rsByOwner.update(objectKey(rs), replicaSets.get(objectKey(rs))));
    pubs.onChange((pub) => queue.add(objectKey(pub)));
    const namespacePubs = (ns: string) => pubs.list().filter((p) => p.metadata?.namespace === ns);
    const replicasOf = new Map<string, number | undefined>();
    for (const w of WORKLOADS) {
      const cache = byKind[w.kind];
      cache.onChange((obj) => {
        const key = `${w.kind}/${objectKey(obj)}`;
        const live = cache.get(objectKey(obj));
        const replicas = live ? (live.spec?.replicas ?? 1) : undefined;
        const seen = replicasOf.has(key);
        if (seen && live && replicasOf.get(key) === replicas) return;
        if (live) replicasOf.set(key, replicas); else replicasOf.delete(key);
        const ref = { apiVersion: w.apiVersion, kind: w.kind, name: obj.metadata?.name ?? '' };
        const hit = workloadPub(ref, (live ?? obj).spec?.template?.metadata?.labels, namespacePubs(obj.metadata?.namespace ?? ''));
        if (hit) queue.add(hit);
      });
    }
    const workloads: WorkloadCaches = {
      get: (kind, ns, name) => byKind[kind].get(`${ns}/${name}`),
      replicaSetsOf: (ns, uid) => rsByOwner.keys(uid).map((k) => replicaSets.get(k)).filter((r): r is Workload => !!r && r.metadata?.namespace === ns
        && (r.metadata?.ownerReferences ?? []).some((o) => o.uid === uid && o.controller === true)),
      podsOwnedBy: (uid) => podsByOwner.keys(uid).map((k) => pods.get(k)).filter((p): p is Pod => !!p
        && (p.metadata?.ownerReferences ?? []).some((o) => o.uid === uid && o.controller === true)),
    };
    return pubReconciler({
      rest: deps.rest, clock: deps.clock, events: deps.events('podunavailablebudget-controller'), spender, pubs, workloads,
      namespacePods: (ns) => [...(podsByNs.get(ns) ?? [])].map((k) => pods.get(k)).filter((p): p is Pod => !!p),
    });
  },
};
