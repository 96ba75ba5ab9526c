// PVCs from `spec.volumeClaimTemplates` (spec/cloneset.md §2.5): one claim per template per instance id, named
// `<template>-<cloneset>-<id>`, owned by the CloneSet, mounted through a pod volume named after the template; ids of
// claims whose pod is gone are reused by the next pods created, unless `scaleStrategy.disablePVCReuse` asks for
// them to go. Pure: the controller creates, re-owns and deletes what these functions return.
import type { V1OwnerReference, V1PersistentVolumeClaim, V1Volume } from '@kubernetes/client-node';
import type { CloneSet } from '../../api/cloneset.js';
import { CloneSetInstanceIdLabel } from '../../api/cloneset.js';
import { KRUISE_API_VERSION, type Pod } from '../../api/meta.js';

export type Claim = V1PersistentVolumeClaim;

export const instanceIdOf = (o: { metadata?: { labels?: Record<string, string> } }): string => o.metadata?.labels?.[CloneSetInstanceIdLabel] ?? '';

export const claimName = (templateName: string, cloneSetName: string, id: string): string => `${templateName}-${cloneSetName}-${id}`;

const controllerRef = (cs: CloneSet): V1OwnerReference => ({
  apiVersion: KRUISE_API_VERSION, kind: 'CloneSet', name: cs.metadata?.name ?? '', uid: cs.metadata?.uid ?? '', controller: true, blockOwnerDeletion: true,
});

/**
 * The claims of instance `id`, in template order: the template with name, namespace, the template's labels plus the
 * selector's matchLabels plus the instance id, and the CloneSet as controller. The template's status (defaulting
 * writes `phase: Pending`) is left to the apiserver, which ignores it on create anyway.
 */
export function claimsFor(cs: CloneSet, id: string): Claim[] {
  return (cs.spec?.volumeClaimTemplates ?? []).map((t) => {
    const { status: _status, ...claim } = structuredClone(t);
    const md = claim.metadata ?? {};
    return {
      apiVersion: 'v1', kind: 'PersistentVolumeClaim', ...claim,
      metadata: {
        ...md,
        name: claimName(md.name ?? '', cs.metadata?.name ?? '', id),
        namespace: cs.metadata?.namespace,
        labels: { ...(md.labels ?? {}), ...(cs.spec?.selector?.matchLabels ?? {}), [CloneSetInstanceIdLabel]: id },
        ownerReferences: [...(md.ownerReferences ?? []), controllerRef(cs)],
      },
    };
  });
}

/**
 * The pod volumes with one `persistentVolumeClaim` volume per template first (replacing a template volume of the same
 * name), then the remaining template volumes (upstream UpdateStorage; its map order is random, ours is the templates').
 */
export function volumesWithClaims(cs: CloneSet, id: string, volumes: readonly V1Volume[] | undefined): V1Volume[] | undefined {
  const templates = cs.spec?.volumeClaimTemplates ?? [];
  if (templates.length === 0) return volumes ? [...volumes] : undefined;
  const names = new Set(templates.map((t) => t.metadata?.name ?? ''));
  const claims: V1Volume[] = templates.map((t) => ({
    name: t.metadata?.name ?? '',
    persistentVolumeClaim: { claimName: claimName(t.metadata?.name ?? '', cs.metadata?.name ?? '', id) },
  }));
  return [...claims, ...(volumes ?? []).filter((v) => !names.has(v.name))];
}

/** Ids of claims no active pod uses, reused first by new pods (sorted, so tests are stable; upstream pops a set). */
export function reusableIds(activePods: readonly Pod[], claims: readonly Claim[]): string[] {
  const used = new Set(activePods.map(instanceIdOf));
  return [...new Set(claims.map(instanceIdOf).filter((id) => id && !used.has(id)))].sort();
}

/** The claims of one pod's instance id, deleted with the pod when the controller deletes it (§3.5 "Delete"). */
export function claimsOfPod(pod: Pod, claims: readonly Claim[]): Claim[] {
  const id = instanceIdOf(pod);
  return id ? claims.filter((c) => instanceIdOf(c) === id) : [];
}

export interface ClaimCleanup {
  /** Claims whose id has only an inactive (terminating/finished) pod: re-owned to that pod, so they go with it. */
  reown: { claim: Claim; pod: Pod }[];
  /** Claims whose id has no pod at all. */
  remove: Claim[];
  /** Claims of active pods: the ones the rest of the round works with. */
  kept: Claim[];
}

/** `disablePVCReuse` (upstream cleanupPVCs): claims not used by an active pod are not kept for reuse. */
export function planClaimCleanup(activePods: readonly Pod[], inactivePods: readonly Pod[], claims: readonly Claim[]): ClaimCleanup {
  const active = new Set(activePods.map(instanceIdOf).filter((id) => id));
  const inactive = new Map<string, Pod>();
  for (const p of inactivePods) if (instanceIdOf(p)) inactive.set(instanceIdOf(p), p);
  const out: ClaimCleanup = { reown: [], remove: [], kept: [] };
  for (const claim of claims) {
    const id = instanceIdOf(claim);
    if (active.has(id)) out.kept.push(claim);
    else if (inactive.has(id)) out.reown.push({ claim, pod: inactive.get(id)! });
    else out.remove.push(claim);
  }
  return out;
}

/** The claim's ownerReferences with the CloneSet's replaced by a controller reference to the pod (upstream SetOwnerRef). */
export function ownerRefsToPod(claim: Claim, cs: CloneSet, pod: Pod): V1OwnerReference[] {
  const rest = (claim.metadata?.ownerReferences ?? []).filter((r) => r.uid !== cs.metadata?.uid);
  if (rest.some((r) => r.uid === pod.metadata?.uid)) return rest;
  return [...rest, { apiVersion: 'v1', kind: 'Pod', name: pod.metadata?.name ?? '', uid: pod.metadata?.uid ?? '', controller: true, blockOwnerDeletion: true }];
}
