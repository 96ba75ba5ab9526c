// The ContainerRecreateRequest that stops a Job pod's sidecars (spec §8.3 step 2). One name per pod: while it exists
// SidecarTerminator creates no other, and the pod owns it, so it goes with the pod.
import type { ContainerRecreateRequest } from '../../api/container-recreate-request.js';
import { KRUISE_API_VERSION, type Pod } from '../../api/meta.js';

export const terminationCrrName = (pod: Pod): string => `sidecar-termination-${pod.metadata?.uid ?? ''}`;

/**
 * Force-recreate (kill even a container that is starting) with failurePolicy Ignore (one container failing to stop
 * does not hold the others); no deadline and no TTL. The pod's restartPolicy keeps the kubelet from starting the
 * stopped sidecars again (Never; OnFailure for a sidecar that exits 0 on SIGTERM).
 */
export function terminationCrr(pod: Pod, containers: readonly string[]): ContainerRecreateRequest {
  const md = pod.metadata ?? {};
  return {
    apiVersion: KRUISE_API_VERSION, kind: 'ContainerRecreateRequest',
    metadata: {
      namespace: md.namespace, name: terminationCrrName(pod),
      ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: md.name ?? '', uid: md.uid ?? '', controller: true, blockOwnerDeletion: true }],
    },
    spec: { podName: md.name ?? '', containers: containers.map((name) => ({ name })), strategy: { forceRecreate: true, failurePolicy: 'Ignore' } },
  };
}

/** Go's `%v` of a string slice: `[a b]`. */
export const goList = (names: readonly string[]): string => `[${names.join(' ')}]`;

export const EventReason = 'SidecarTerminator';
export const crrMessage = (names: readonly string[]) => `Kruise SidecarTerminator is trying to terminate sidecar ${goList(names)} using crr`;
export const inPlaceMessage = (names: readonly string[]) => `Kruise SidecarTerminator is trying to terminate sidecar ${goList(names)} using in-place update`;
export const SidecarTerminatedMessage = 'Terminated by Sidecar Terminator';
