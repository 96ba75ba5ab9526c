// containerrecreaterequest-controller (spec/daemon-and-controllers.md §4.3): the manager's half of a CRR — holding
// the pod not-ready for the daemon, copying container readiness into the CRR, the response timeout, the active
// deadline, TTL deletion and releasing the pod at the end. Decisions are planReconcile's; this file does the I/O.
import type { KubernetesObject } from '@kubernetes/client-node';
import {
  CRRActiveLabel, CRRPodUIDLabel, CRRSyncContainerStatusesAnnotation, CRRUnreadyAcquiredKey,
  type ContainerRecreateRequest,
} from '../../shared/api/container-recreate-request.js';
import type { Pod } from '../../shared/api/meta.js';
import type { Cache } from '../../shared/kube/informer.js';
import { objectKey } from '../../shared/kube/keys.js';
import { resources } from '../../shared/kube/resources.js';
import { isConflict, type KubeRest } from '../../shared/kube/rest.js';
import type { Controller } from '../types.js';
import { planReconcile, type Action } from './plan.js';
import { addNotReadyKey, removeNotReadyKey, type NotReadyHolder } from './pod-readiness.js';
import { updatePodConditions } from './pod-readiness-write.js';

type Crr = ContainerRecreateRequest & KubernetesObject;
type PodObj = Pod & KubernetesObject;

const FIELD_MANAGER = 'kruise-ts-containerrecreaterequest';
/** client-go retry.DefaultBackoff: 4 steps; a conflict past that is left to the runner's backoff. */
const CONFLICT_RETRIES = 4;

/** RFC3339 with whole seconds, as metav1.Time and Go's time.RFC3339 format it. */
export const rfc3339 = (ms: number): string => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');

const holderOf = (crr: ContainerRecreateRequest): NotReadyHolder =>
  ({ userAgent: 'ContainerRecreateRequest', key: `${crr.metadata?.namespace}/${crr.metadata?.name}` });

const completed = (crr: ContainerRecreateRequest) => !!crr.status?.completionTime;

export const containerRecreateRequestController: Controller = {
  name: 'containerrecreaterequest-controller',
  // Upstream runs the daemon-dependent controllers only with KruiseDaemon on.
  featureGate: 'KruiseDaemon',
  workers: 3,
  setup({ informers, rest, clock }, queue) {
    const crrs = informers.cache<Crr>(resources.containerRecreateRequests);
    const pods = informers.cache<PodObj>(resources.pods);
    const byPod = podIndex(crrs);
    crrs.onChange((crr) => queue.add(objectKey(crr)));
    // Upstream enqueues on pod create, delete, deletion start and containerStatuses changes; every change of a pod
    // with unfinished CRRs is a superset of those, and reconciles are idempotent.
    pods.onChange((pod) => { for (const key of byPod.keysFor(pod)) queue.add(key); });

    return async (key, ctx) => {
      const crr = crrs.get(key);
      if (!crr) return;
      const pod = await currentPod(rest, pods, crr);
      const plan = planReconcile({ crr, pod, nowMs: clock.now() });
      for (const action of plan.actions) {
        ctx.log.debug({ action: action.type }, 'containerrecreaterequest action');
        await perform(rest, crr, action, clock.now());
      }
      if (plan.actions.some((a) => a.type === 'complete')) ctx.log.info({ message: plan.actions.find((a) => a.type === 'complete')?.message }, 'completed ContainerRecreateRequest');
      return plan.requeueAfterMs ? { requeueAfterMs: plan.requeueAfterMs } : {};
    };
  },
};

/**
 * The CRR's pod from the cache; when the cache does not show it (or shows another UID) the API is asked, because
 * a pod created just before its CRR may not have reached this cache yet and "pod has gone" is final.
 */
async function currentPod(rest: KubeRest, pods: Cache<PodObj>, crr: ContainerRecreateRequest): Promise<Pod | undefined> {
  const ns = crr.metadata?.namespace ?? '';
  const name = crr.spec?.podName ?? '';
  const cached = pods.get(`${ns}/${name}`);
  if (cached && cached.metadata?.uid === crr.metadata?.labels?.[CRRPodUIDLabel]) return cached;
  return rest.find<PodObj>(resources.pods, { namespace: ns, name });
}

/** Unfinished CRR keys by pod UID, so a pod change wakes only its own CRRs. */
function podIndex(crrs: Cache<Crr>) {
  const uidOfKey = new Map<string, string>();
  const keysOfUid = new Map<string, Set<string>>();
  const drop = (key: string) => {
    const uid = uidOfKey.get(key);
    if (uid === undefined) return;
    uidOfKey.delete(key);
    keysOfUid.get(uid)?.delete(key);
    if (keysOfUid.get(uid)?.size === 0) keysOfUid.delete(uid);
  };
  crrs.onChange((changed) => {
    const key = objectKey(changed);
    drop(key);
    const crr = crrs.get(key);
    const uid = crr?.metadata?.labels?.[CRRPodUIDLabel];
    if (!crr || completed(crr) || !uid) return;
    uidOfKey.set(key, uid);
    if (!keysOfUid.has(uid)) keysOfUid.set(uid, new Set());
    keysOfUid.get(uid)!.add(key);
  });
  return {
    keysFor: (pod: Pod): string[] =>
      [...(keysOfUid.get(pod.metadata?.uid ?? '') ?? [])].filter((k) => k.startsWith(`${pod.metadata?.namespace}/`)),
  };
}

async function perform(rest: KubeRest, crr: Crr, action: Action, nowMs: number): Promise<void> {
  const where = { namespace: crr.metadata?.namespace ?? '', name: crr.metadata?.name ?? '' };
  const patchCrr = (body: unknown) => rest.patch(resources.containerRecreateRequests, where, 'merge', body, { fieldManager: FIELD_MANAGER });
  switch (action.type) {
    case 'complete': {
      const status = { ...crr.status, phase: 'Completed', completionTime: rfc3339(nowMs), message: action.message,
        ...(action.states ? { containerRecreateStates: action.states } : {}) };
      await rest.replace(resources.containerRecreateRequests, { ...crr, status }, { subresource: 'status', fieldManager: FIELD_MANAGER });
      return;
    }
    case 'sync-container-statuses':
      await patchCrr({ metadata: { annotations: { [CRRSyncContainerStatusesAnnotation]: action.value } } });
      return;
    case 'stamp-unready-acquired':
      await patchCrr({ metadata: { annotations: { [CRRUnreadyAcquiredKey]: rfc3339(nowMs) } } });
      return;
    case 'remove-active-label':
      await patchCrr({ metadata: { labels: { [CRRActiveLabel]: null } } });
      return;
    case 'delete':
      await rest.delete(resources.containerRecreateRequests, where, { uid: crr.metadata?.uid });
      return;
    case 'add-finalizer':
    case 'remove-finalizer':
      await updateFinalizers(rest, where, action.type === 'add-finalizer');
      return;
    case 'acquire-pod-not-ready':
    case 'release-pod-not-ready': {
      const change = action.type === 'acquire-pod-not-ready' ? addNotReadyKey : removeNotReadyKey;
      await updatePodConditions(rest, { namespace: where.namespace, name: crr.spec?.podName ?? '' }, (pod) => change(pod, holderOf(crr), rfc3339(nowMs)), FIELD_MANAGER);
      return;
    }
  }
}

async function onConflictRetry(f: () => Promise<void>): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await f();
    } catch (err) {
      if (!isConflict(err) || attempt >= CONFLICT_RETRIES) throw err;
    }
  }
}

/** Read-modify-write of the CRR's finalizers (upstream Get + Update under RetryOnConflict). */
function updateFinalizers(rest: KubeRest, where: { namespace: string; name: string }, add: boolean): Promise<void> {
  return onConflictRetry(async () => {
    const fresh = await rest.get<Crr>(resources.containerRecreateRequests, where);
    const finalizers = fresh.metadata?.finalizers ?? [];
    const has = finalizers.includes(CRRUnreadyAcquiredKey);
    if (has === add) return;
    const next = add ? [...finalizers, CRRUnreadyAcquiredKey] : finalizers.filter((f) => f !== CRRUnreadyAcquiredKey);
    await rest.replace(resources.containerRecreateRequests, { ...fresh, metadata: { ...fresh.metadata, finalizers: next } }, { fieldManager: FIELD_MANAGER });
  });
}
