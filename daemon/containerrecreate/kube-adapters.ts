// Thin API adapters of the CRR executor over KubeRest and the shared informers: node-scoped caches, CRR status
// writes, a pod lookup and an event sink. Plain JSON throughout (no typed client, so nothing of client-node's
// generated models is loaded). They turn the API into the plain values and narrow ports the syncer uses; nothing
// here decides anything.
import type { KubernetesObject, V1Pod } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import {
  CRRActiveLabel, CRRNodeNameLabel,
  type ContainerRecreateRequest, type ContainerRecreateRequestContainerRecreateState as RecreateState,
  type ContainerRecreateRequestStatus,
} from '../../shared/api/container-recreate-request.js';
import { eventRecorder } from '../../shared/kube/event-recorder.js';
import type { Cache } from '../../shared/kube/informer.js';
import type { InformerFactory } from '../../shared/kube/informer-factory.js';
import { resources } from '../../shared/kube/resources.js';
import type { KubeRest } from '../../shared/kube/rest.js';
import type { CrrEvent } from './kill.js';

export type CrrObject = ContainerRecreateRequest & KubernetesObject;

export const CRR_COMPONENT = 'kruise-daemon-crr';

/** Where the syncer's writes go. Each resolves with the CRR as the server stored it. */
export interface CrrWriter {
  /** Replaces the status subresource (optimistic concurrency on the given resourceVersion). */
  updateStatus(crr: ContainerRecreateRequest, status: ContainerRecreateRequestStatus): Promise<ContainerRecreateRequest>;
  /** Merge-patches status.containerRecreateStates. */
  patchStates(crr: ContainerRecreateRequest, states: RecreateState[]): Promise<ContainerRecreateRequest>;
}

type Crr = ContainerRecreateRequest & { metadata: object };
const where = (crr: ContainerRecreateRequest) => ({ namespace: crr.metadata?.namespace, name: crr.metadata?.name ?? '' });

/** Status replace and merge patch of `status.containerRecreateStates`, each resolving the stored CRR. */
export function restCrrWriter(rest: KubeRest): CrrWriter {
  return {
    updateStatus: (crr, status) => rest.replace<Crr>(resources.containerRecreateRequests, { ...crr, status } as Crr, { subresource: 'status' }),
    patchStates: (crr, states) =>
      rest.patch<Crr>(resources.containerRecreateRequests, { ...where(crr), subresource: 'status' }, 'merge', { status: { containerRecreateStates: states } }),
  };
}

export interface NodeCaches {
  crrs: Cache<CrrObject>;
  pods: Cache<V1Pod>;
}

/**
 * The two informers the executor reads (spec §1.5): active CRRs labelled with this node, in all namespaces, and
 * the pods bound to this node. No resync.
 */
export function nodeCaches(informers: InformerFactory, nodeName: string): NodeCaches {
  return {
    crrs: informers.cache<CrrObject>(resources.containerRecreateRequests, { labelSelector: `${CRRNodeNameLabel}=${nodeName},${CRRActiveLabel}=true` }),
    pods: informers.cache<V1Pod>(resources.pods, { fieldSelector: `spec.nodeName=${nodeName}` }),
  };
}

/** The executor's API ports over KubeRest and the shared informers: what the daemon wires, and e2e tests and benches too. */
export function restExecutorPorts(deps: { rest: KubeRest; informers: InformerFactory; nodeName: string; log: Logger }) {
  const recorder = eventRecorder({ rest: deps.rest, component: CRR_COMPONENT, host: deps.nodeName, log: deps.log });
  return {
    caches: nodeCaches(deps.informers, deps.nodeName),
    getPod: (namespace: string, name: string) => deps.rest.find<V1Pod & { metadata: object }>(resources.pods, { namespace, name }),
    writer: restCrrWriter(deps.rest),
    emitEvent: ({ involvedObject: o, type, reason, message }: CrrEvent) =>
      recorder.event({ apiVersion: o.apiVersion, kind: o.kind, metadata: { name: o.name, namespace: o.namespace, uid: o.uid } }, type, reason, message),
  };
}
