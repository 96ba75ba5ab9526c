// KillContainer as kubelet does it, re-implemented for the daemon (spec/daemon-and-controllers.md §4.4): a Killing
// event, the preStop hook within the grace period, then StopContainer with what is left of it (at least 2 s).
import type { V1ObjectReference } from '@kubernetes/client-node';
import type { ContainerRecreateRequestContainer } from '../../shared/api/container-recreate-request.js';
import type { RuntimeService } from '../cri/runtime.js';
import { runPreStop, type HttpGet } from './prestop.js';

/** Pod terminationGracePeriodSeconds default, used when the CRR strategy has none. */
export const DEFAULT_GRACE_SECONDS = 30;
/** kubelet's minimumGracePeriodInSeconds: the shortest window a container gets between SIGTERM and SIGKILL. */
export const MIN_GRACE_SECONDS = 2;

export const REASON_KILLING = 'Killing';
export const REASON_FAILED_PRESTOP = 'FailedPreStopHook';

export interface CrrEvent {
  involvedObject: V1ObjectReference;
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
}

export interface KillTarget {
  pod: { namespace: string; name: string; uid: string };
  container: ContainerRecreateRequestContainer;
  criId: string;
  crrName: string;
  /** strategy.terminationGracePeriodSeconds (the webhook defaults it from the pod). */
  graceSeconds?: number;
}

export interface KillDeps {
  runtime: RuntimeService;
  emitEvent(e: CrrEvent): void;
  now(): number;
  httpGet?: HttpGet;
}

export function containerRef(pod: KillTarget['pod'], container: string): V1ObjectReference {
  return { apiVersion: 'v1', kind: 'Pod', namespace: pod.namespace, name: pod.name, uid: pod.uid, fieldPath: `spec.containers{${container}}` };
}

/** Stops the container; rejects only when StopContainer fails. */
export async function killContainer(deps: KillDeps, t: KillTarget): Promise<void> {
  const ref = containerRef(t.pod, t.container.name);
  deps.emitEvent({ involvedObject: ref, type: 'Normal', reason: REASON_KILLING, message: `Stopping container ${t.container.name} by ContainerRecreateRequest ${t.crrName}` });
  let grace = t.graceSeconds ?? DEFAULT_GRACE_SECONDS;
  if (t.container.preStop && grace > 0) {
    const started = deps.now();
    const hook = await runPreStop(deps, { criId: t.criId, preStop: t.container.preStop, ports: t.container.ports, graceSeconds: grace });
    if (!hook.ok) deps.emitEvent({ involvedObject: ref, type: 'Warning', reason: REASON_FAILED_PRESTOP, message: hook.output });
    grace -= Math.floor((deps.now() - started) / 1000);
  }
  await deps.runtime.stopContainer(t.criId, Math.max(grace, MIN_GRACE_SECONDS));
}
