// The writes of SidecarTerminator's steps (shared/domain/sidecar-terminator/plan.ts), each idempotent.
import type { V1Condition } from '@kubernetes/client-node';
import type { ContainerRecreateRequest } from '../../shared/api/container-recreate-request.js';
import { SidecarTerminatedConditionType } from '../../shared/api/container-recreate-request.js';
import type { Pod } from '../../shared/api/meta.js';
import type { Clock } from '../../shared/clock.js';
import {
  crrMessage, EventReason, inPlaceMessage, SidecarTerminatedMessage, terminationCrr, terminationCrrName,
} from '../../shared/domain/sidecar-terminator/crr.js';
import { terminationImage } from '../../shared/domain/sidecar-terminator/containers.js';
import type { TerminationStep } from '../../shared/domain/sidecar-terminator/plan.js';
import type { EventRecorder } from '../../shared/kube/event-recorder.js';
import type { Cache } from '../../shared/kube/informer.js';
import { resources } from '../../shared/kube/resources.js';
import { isConflict, type KubeRest } from '../../shared/kube/rest.js';
import { patchPodStatus, updatePod } from '../sidecarset/pod-writes.js';

export const FIELD_MANAGER = 'kruise-ts-sidecarterminator';

export interface StepDeps {
  rest: KubeRest;
  clock: Clock;
  crrs: Cache<ContainerRecreateRequest & { metadata?: object }>;
  events: EventRecorder;
}

const asPod = (pod: Pod) => ({ apiVersion: 'v1', kind: 'Pod', metadata: pod.metadata });
const at = (pod: Pod) => ({ namespace: pod.metadata?.namespace ?? '', name: pod.metadata?.name ?? '' });

export async function runStep(deps: StepDeps, pod: Pod, step: TerminationStep): Promise<void> {
  switch (step.type) {
    case 'in-place': return replaceImages(deps, pod, step.containers);
    case 'crr': return createCrr(deps, pod, step.containers);
    case 'mark-terminated': return markTerminated(deps, pod, step.phase);
  }
}

/**
 * Upstream re-reads the pod and Updates it with conflict retry; here a patch of the changed images guarded by the
 * resourceVersion read (updatePod: cache first, a GET after a conflict, 5 tries). The event is emitted only when an
 * image changed — upstream emits it on every reconcile of the pod (spec §11 quirk 13; docs/compatibility.md).
 */
async function replaceImages(deps: StepDeps, pod: Pod, names: string[]): Promise<void> {
  const wanted = new Set(names);
  const changed: string[] = [];
  const written = await updatePod(deps.rest, deps.clock, at(pod), (p) => {
    changed.length = 0;
    for (const c of p.spec?.containers ?? []) {
      const image = wanted.has(c.name) ? terminationImage(c) : undefined;
      if (image === undefined || c.image === image) continue;
      c.image = image;
      changed.push(c.name);
    }
    return changed.length > 0;
  }, pod, FIELD_MANAGER);
  if (written) deps.events.event(asPod(pod), 'Normal', EventReason, inPlaceMessage(changed));
}

/** Nothing when the pod's termination CRR exists (in the cache, or the create finds it): it is being worked on. */
async function createCrr(deps: StepDeps, pod: Pod, names: string[]): Promise<void> {
  const name = terminationCrrName(pod);
  if (deps.crrs.get(`${pod.metadata?.namespace ?? ''}/${name}`)) return;
  try {
    await deps.rest.create(resources.containerRecreateRequests, terminationCrr(pod, names), { fieldManager: FIELD_MANAGER });
  } catch (err) {
    if (isConflict(err)) return;
    throw err;
  }
  deps.events.event(asPod(pod), 'Normal', EventReason, crrMessage(names));
}

async function markTerminated(deps: StepDeps, pod: Pod, phase: 'Succeeded' | 'Failed'): Promise<void> {
  const now = new Date(deps.clock.now()).toISOString().replace(/\.\d+Z$/, 'Z');
  const condition = { type: SidecarTerminatedConditionType, status: 'True', lastProbeTime: null, lastTransitionTime: now, message: SidecarTerminatedMessage };
  try {
    await patchPodStatus(deps.rest, at(pod), { status: { phase, conditions: [condition as unknown as V1Condition] } }, FIELD_MANAGER);
  } catch (err) {
    throw new Error(`failed to patch pod status: ${(err as Error).message}`, { cause: err });
  }
}
