// The PUB reconcile (spec/availability-guards.md §5.3): list the PUB's pods and expected count, fill the related-pub
// annotation of pods lacking one, then write the status under the per-PUB lock shared with CloneSet's pre-check, with
// the resourceVersion read (up to 4 attempts, a fresh GET after a conflict), and requeue at the next record time-out.
import type { Pod } from '../../shared/api/meta.js';
import { PubRelatedAnnotation } from '../../shared/api/pod-unavailable-budget.js';
import type { Clock } from '../../shared/clock.js';
import { sleep } from '../../shared/clock.js';
import { desiredAvailable, planStatus, sameStatus } from '../../shared/domain/pub/status.js';
import { SPEND_ATTEMPTS, SPEND_INTERVAL_MS, type PubSpender } from '../../shared/domain/pub/spend.js';
import type { EventRecorder } from '../../shared/kube/event-recorder.js';
import type { Cache } from '../../shared/kube/informer.js';
import { resources, withTypeMeta } from '../../shared/kube/resources.js';
import { isConflict, type KubeRest } from '../../shared/kube/rest.js';
import type { ReconcileFn } from '../../shared/reconcile/types.js';
import { timeSlicer } from '../../shared/reconcile/yield.js';
import type { PubObj } from './budget.js';
import { podsForPub } from './pods-for-pub.js';
import type { WorkloadCaches } from './workloads.js';

export interface PubReconcilerDeps {
  rest: KubeRest;
  clock: Clock;
  events: EventRecorder;
  spender: PubSpender;
  pubs: Cache<PubObj>;
  workloads: WorkloadCaches;
  namespacePods(namespace: string): Pod[];
}

const podRef = (pod: Pod) => withTypeMeta(resources.pods, pod) as Pod & { apiVersion: string; kind: string };

export function pubReconciler(d: PubReconcilerDeps): ReconcileFn {
  return async (key) => {
    const pub = d.pubs.get(key);
    if (!pub || pub.metadata?.deletionTimestamp) { d.spender.forget(key); return; }
    const ns = pub.metadata?.namespace ?? '';
    const name = pub.metadata?.name ?? '';
    const { pods, expected } = podsForPub(pub, d.workloads, () => d.namespacePods(ns));
    if (pods.length === 0) d.events.event(withTypeMeta(resources.podUnavailableBudgets, pub), 'Normal', 'NoPods', 'No matching pods found');
    const slicer = timeSlicer();
    for (const pod of pods) {
      if (pod.metadata?.annotations?.[PubRelatedAnnotation]) continue;
      await d.rest.patch(resources.pods, { namespace: ns, name: pod.metadata?.name ?? '' }, 'strategic', { metadata: { annotations: { [PubRelatedAnnotation]: name } } });
      await slicer.tick();
    }
    const desired = desiredAvailable(pub, expected);
    if (typeof desired !== 'number') {
      d.events.event(withTypeMeta(resources.podUnavailableBudgets, pub), 'Warning', 'CalculateExpectedPodCountFailed', `Failed to calculate the number of expected pods: ${desired.error}`);
      throw new Error(desired.error);
    }
    const now = d.clock.now();
    const recheckMs = await d.spender.locked(key, async () => {
      let copy: PubObj | undefined = d.spender.freshest(key, ns, name) as PubObj | undefined ?? pub;
      for (let i = 0; ; i++) {
        const plan = planStatus({ pub: copy, pods, expected, desired, nowMs: now });
        for (const podName of i === 0 ? plan.notDeleted : []) {
          const pod = pods.find((p) => p.metadata?.name === podName);
          if (pod) d.events.event(podRef(pod), 'Warning', 'NotDeleted', `Pod was expected by PUB ${ns}/${name} to be deleted but it wasn't`);
        }
        if (sameStatus(copy.status, plan.status)) return plan.recheckMs;
        try {
          const written = await d.rest.replace(resources.podUnavailableBudgets, withTypeMeta(resources.podUnavailableBudgets, { ...copy, status: plan.status }), { subresource: 'status' });
          d.spender.remember(key, written);
          return plan.recheckMs;
        } catch (err) {
          if (!isConflict(err) || i + 1 >= SPEND_ATTEMPTS) throw err;
        }
        await sleep(d.clock, SPEND_INTERVAL_MS);
        copy = await d.rest.find<PubObj>(resources.podUnavailableBudgets, { namespace: ns, name });
        if (!copy) return undefined;
      }
    });
    return recheckMs !== undefined && recheckMs > 0 ? { requeueAfterMs: recheckMs } : {};
  };
}
