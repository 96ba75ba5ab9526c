// Which version of its workload a pod belongs to, for versionedSubsetStatuses (spec/availability-guards.md §15).
// Only Deployment/ReplicaSet pods are versioned: upstream reads --ws-enabled-versioned-status before flag parsing,
// so that set is fixed at its default (§18 #10).
import type { Pod } from '../../api/meta.js';
import { VersionIgnored } from '../../api/workload-spread.js';

const VERSIONED_KINDS = new Set(['deployment', 'replicaset']);

type OwnerRef = { controller?: boolean; apiVersion: string; kind: string; name: string; uid: string };

/** metav1.GetControllerOf; the fields read as Go's zero values when missing (null or absent in a decoded review). */
export function controllerOf(pod: { metadata?: { ownerReferences?: OwnerRef[] } }): OwnerRef | undefined {
  const r = pod.metadata?.ownerReferences?.find((o) => o.controller === true);
  return r && { ...r, apiVersion: r.apiVersion ?? '', kind: r.kind ?? '', name: r.name ?? '', uid: r.uid ?? '' };
}

export function podVersion(pod: Pod): string {
  const owner = controllerOf(pod);
  const versioned = VERSIONED_KINDS.has(typeof pod.kind === 'string' ? pod.kind.toLowerCase() : '') || (owner !== undefined && VERSIONED_KINDS.has(owner.kind.toLowerCase()));
  if (!versioned) return VersionIgnored;
  const labels = pod.metadata?.labels ?? {};
  if (labels['pod-template-hash']) return labels['pod-template-hash'];
  const crh = labels['controller-revision-hash'];
  if (crh) return crh.slice(crh.lastIndexOf('-') + 1);
  return VersionIgnored;
}

/** Kubernetes IsPodActive: not Succeeded/Failed and not being deleted. */
export const isPodActive = (pod: Pod): boolean =>
  pod.status?.phase !== 'Succeeded' && pod.status?.phase !== 'Failed' && !pod.metadata?.deletionTimestamp;
