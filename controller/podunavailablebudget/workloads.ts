// The controller finder of the PUB controller (spec/availability-guards.md §5.2), over the manager's caches: which
// workload a ref names, its replicas, and the pods it owns. Kinds served: ReplicaSet, Deployment (through its
// ReplicaSets), StatefulSet (apps/v1) and CloneSet; any other kind is unknown here (docs/compatibility.md).
import type { KubernetesObject } from '@kubernetes/client-node';
import type { Pod } from '../../shared/api/meta.js';
import { groupOf, type WorkloadRef } from '../../shared/domain/pub/related.js';

export interface Workload extends KubernetesObject {
  spec?: { replicas?: number; selector?: unknown; template?: { metadata?: { labels?: Record<string, string> } } };
}

/** What the finder reads: workloads by namespace/name per kind, pods by controller UID. */
export interface WorkloadCaches {
  get(kind: 'ReplicaSet' | 'Deployment' | 'StatefulSet' | 'CloneSet', namespace: string, name: string): Workload | undefined;
  /** ReplicaSets controlled by the Deployment with this UID. */
  replicaSetsOf(namespace: string, deploymentUid: string): Workload[];
  /** Pods whose controller owner has this UID. */
  podsOwnedBy(uid: string): Pod[];
}

const KINDS: Record<string, { group: string; kind: 'ReplicaSet' | 'Deployment' | 'StatefulSet' | 'CloneSet' }> = {
  ReplicaSet: { group: 'apps', kind: 'ReplicaSet' },
  Deployment: { group: 'apps', kind: 'Deployment' },
  StatefulSet: { group: 'apps', kind: 'StatefulSet' },
  CloneSet: { group: 'apps.kruise.io', kind: 'CloneSet' },
};

const deleting = (w: Workload) => !!w.metadata?.deletionTimestamp;
const replicas = (w: Workload) => w.spec?.replicas ?? 1;

/** The workload `ref` names (group and kind must match a served kind), or undefined. */
export function findWorkload(c: WorkloadCaches, namespace: string, ref: WorkloadRef): Workload | undefined {
  const k = KINDS[ref.kind];
  if (!k || groupOf(ref.apiVersion) !== k.group) return undefined;
  return c.get(k.kind, namespace, ref.name);
}

/** The top workload of an owner: a ReplicaSet controlled by a Deployment resolves to the Deployment. */
export function topWorkload(c: WorkloadCaches, namespace: string, owner: WorkloadRef): { ref: WorkloadRef; workload: Workload } | undefined {
  const w = findWorkload(c, namespace, owner);
  if (!w) return undefined;
  if (owner.kind === 'ReplicaSet') {
    const d = w.metadata?.ownerReferences?.find((r) => r.controller === true && r.kind === 'Deployment' && groupOf(r.apiVersion) === 'apps');
    const dep = d ? c.get('Deployment', namespace, d.name) : undefined;
    if (dep && dep.metadata?.uid === d!.uid) return { ref: { apiVersion: d!.apiVersion, kind: 'Deployment', name: d!.name }, workload: dep };
  }
  return { ref: owner, workload: w };
}

const active = (p: Pod) => p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed' && !p.metadata?.deletionTimestamp;

/** GetPodsForRef (active pods) and the expected count: workload missing or deleting, or replicas 0 → nothing. */
export function podsForRef(c: WorkloadCaches, namespace: string, ref: WorkloadRef): { pods: Pod[]; expected: number } {
  const w = findWorkload(c, namespace, ref);
  if (!w || deleting(w)) return { pods: [], expected: 0 };
  const expected = replicas(w);
  if (expected === 0) return { pods: [], expected: 0 };
  const uid = w.metadata?.uid ?? '';
  let pods: Pod[];
  if (ref.kind === 'Deployment') {
    const sets = c.replicaSetsOf(namespace, uid).filter((rs) => !deleting(rs));
    pods = sets.length ? sets.flatMap((rs) => c.podsOwnedBy(rs.metadata?.uid ?? '')) : c.podsOwnedBy(uid);
  } else pods = c.podsOwnedBy(uid);
  return { pods: pods.filter(active), expected };
}

/** The replicas a selector PUB expects from one pod owner (missing, deleting or unknown kinds: none). */
export function ownerScale(c: WorkloadCaches, namespace: string, owner: WorkloadRef): { key: string; replicas: number } | undefined {
  const top = topWorkload(c, namespace, owner);
  if (!top || deleting(top.workload)) return undefined;
  return { key: `${groupOf(top.ref.apiVersion)}/${top.ref.kind}/${top.ref.name}`, replicas: replicas(top.workload) };
}
