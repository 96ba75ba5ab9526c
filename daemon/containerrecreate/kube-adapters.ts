// Thin API adapters of the CRR executor: node-scoped informers, CRR status writes, a pod lookup and an event sink.
// They turn the API into the plain values and narrow ports the syncer uses; nothing here decides anything.
import {
  PatchStrategy, setHeaderOptions,
  type CoreV1Api, type CustomObjectsApi, type KubeConfig, type KubernetesListObject, type KubernetesObject, type V1Pod,
} from '@kubernetes/client-node';
import type { Logger } from 'pino';
import {
  CRRActiveLabel, CRRNodeNameLabel,
  type ContainerRecreateRequest, type ContainerRecreateRequestContainerRecreateState as RecreateState,
  type ContainerRecreateRequestStatus,
} from '../../shared/api/container-recreate-request.js';
import { makeListWatch, startInformer, type Cache } from '../../shared/kube/informer.js';
import type { CrrEvent } from './kill.js';

export type CrrObject = ContainerRecreateRequest & KubernetesObject;

const CRR = { group: 'apps.kruise.io', version: 'v1alpha1', plural: 'containerrecreaterequests' } as const;

/** Where the syncer's writes go. Each resolves with the CRR as the server stored it. */
export interface CrrWriter {
  /** Replaces the status subresource (optimistic concurrency on the given resourceVersion). */
  updateStatus(crr: ContainerRecreateRequest, status: ContainerRecreateRequestStatus): Promise<ContainerRecreateRequest>;
  /** Merge-patches status.containerRecreateStates. */
  patchStates(crr: ContainerRecreateRequest, states: RecreateState[]): Promise<ContainerRecreateRequest>;
}

export function kubeCrrWriter(custom: CustomObjectsApi): CrrWriter {
  const target = (crr: ContainerRecreateRequest) => ({ ...CRR, namespace: crr.metadata?.namespace ?? '', name: crr.metadata?.name ?? '' });
  return {
    async updateStatus(crr, status) {
      return await custom.replaceNamespacedCustomObjectStatus({ ...target(crr), body: { ...crr, status } }) as CrrObject;
    },
    async patchStates(crr, states) {
      return await custom.patchNamespacedCustomObjectStatus(
        { ...target(crr), body: { status: { containerRecreateStates: states } } },
        setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
      ) as CrrObject;
    },
  };
}

/** GET of a pod; undefined on 404. */
export function kubePodGetter(core: CoreV1Api): (namespace: string, name: string) => Promise<V1Pod | undefined> {
  return async (namespace, name) => {
    try {
      return await core.readNamespacedPod({ namespace, name });
    } catch (err) {
      if ((err as { code?: number })?.code === 404) return undefined;
      throw new Error(`get pod ${namespace}/${name}`, { cause: err });
    }
  };
}

/** core/v1 Events from component `kruise-daemon-crr` on this node (spec §1.6). Failures are logged, never thrown. */
export function kubeEventSink(core: CoreV1Api, nodeName: string, log: Logger, now: () => number = Date.now): (e: CrrEvent) => void {
  return (e) => {
    const namespace = e.involvedObject.namespace ?? 'default';
    const ts = new Date(now());
    const event = {
      // client-go names events <object>.<unix nanos in hex>; the random nanos keep two events in one ms apart.
      metadata: { namespace, name: `${e.involvedObject.name}.${(BigInt(ts.getTime()) * 1_000_000n + BigInt(Math.floor(Math.random() * 1_000_000))).toString(16)}` },
      involvedObject: e.involvedObject, type: e.type, reason: e.reason, message: e.message,
      source: { component: 'kruise-daemon-crr', host: nodeName },
      firstTimestamp: ts, lastTimestamp: ts, count: 1, reportingComponent: 'kruise-daemon-crr', reportingInstance: nodeName,
    };
    core.createNamespacedEvent({ namespace, body: event }).catch((err: unknown) =>
      log.warn({ err, reason: e.reason, object: `${namespace}/${e.involvedObject.name}` }, 'cannot record event'));
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
export function startNodeCaches(kube: { kc: KubeConfig; core: CoreV1Api; custom: CustomObjectsApi }, nodeName: string, signal: AbortSignal, log: Logger): NodeCaches {
  const labelSelector = `${CRRNodeNameLabel}=${nodeName},${CRRActiveLabel}=true`;
  const fieldSelector = `spec.nodeName=${nodeName}`;
  const crrs = startInformer(
    makeListWatch<CrrObject>(kube.kc, `/apis/${CRR.group}/${CRR.version}/${CRR.plural}`,
      async () => (await kube.custom.listClusterCustomObject({ ...CRR, labelSelector })) as KubernetesListObject<CrrObject>, { labelSelector }),
    signal, { log: log.child({ informer: 'containerrecreaterequests' }) },
  );
  const pods = startInformer(
    makeListWatch<V1Pod>(kube.kc, '/api/v1/pods', () => kube.core.listPodForAllNamespaces({ fieldSelector }), { fieldSelector }),
    signal, { log: log.child({ informer: 'pods' }) },
  );
  return { crrs, pods };
}
