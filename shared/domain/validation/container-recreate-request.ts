// ContainerRecreateRequest mutating webhook (spec/webhooks.md §5.1, spec/daemon-and-controllers.md §4.2). There is
// no validating webhook upstream: this mutator both checks and fills in the CRR. Gate KruiseDaemon is assumed on.
import type { V1Node } from '@kubernetes/client-node';
import {
  CRRActiveLabel,
  CRRNodeNameLabel,
  CRRPodUIDLabel,
  CRRUnreadyAcquiredKey,
  CRRVirtualKubeletLabelKey,
  CRRVirtualKubeletLabelValue,
  SidecarTerminatedConditionType,
  type ContainerRecreateRequest,
} from '../../api/container-recreate-request.js';
import type { Pod } from '../../api/meta.js';
import { AdmissionDeniedError } from '../../errors.js';
import { deepEqual } from './sidecarset-conflicts.js';

export interface CRRMutationContext {
  operation: 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT' | string;
  getPod(namespace: string, name: string): Pod | undefined;
  getNode(name: string): V1Node | undefined;
  /** The request's namespace, used when the object itself carries none. */
  namespace?: string;
}

const minDeadlineSeconds = 3;

/** Returns the CRR to store (a mutated clone on CREATE, the input on UPDATE); throws AdmissionDeniedError to refuse. */
export function mutateContainerRecreateRequest(
  obj: ContainerRecreateRequest,
  old: ContainerRecreateRequest | undefined,
  ctx: CRRMutationContext,
): ContainerRecreateRequest {
  if (ctx.operation === 'UPDATE') {
    if (old) checkUpdate(obj, old);
    return obj;
  }
  if (ctx.operation !== 'CREATE') return obj;
  return mutateOnCreate(structuredClone(obj), ctx);
}

function checkUpdate(obj: ContainerRecreateRequest, old: ContainerRecreateRequest): void {
  if (!deepEqual(obj.spec, old.spec)) throw new AdmissionDeniedError('spec of ContainerRecreateRequest is immutable', 403);
  for (const key of [CRRPodUIDLabel, CRRNodeNameLabel]) {
    if (obj.metadata?.labels?.[key] !== old.metadata?.labels?.[key]) {
      throw new AdmissionDeniedError(`not allowed to update immutable label ${key}`, 403);
    }
  }
  const before = old.metadata?.annotations?.[CRRUnreadyAcquiredKey] ?? '';
  if (before !== '' && obj.metadata?.annotations?.[CRRUnreadyAcquiredKey] !== before) {
    throw new AdmissionDeniedError(`not allowed to update immutable annotation ${CRRUnreadyAcquiredKey}`, 403);
  }
}

const bad = (message: string): AdmissionDeniedError => new AdmissionDeniedError(message, 400);

function mutateOnCreate(obj: ContainerRecreateRequest, ctx: CRRMutationContext): ContainerRecreateRequest {
  const meta = (obj.metadata ??= {});
  const labels = (meta.labels ??= {});
  const spec = obj.spec ?? ({} as NonNullable<ContainerRecreateRequest['spec']>);
  obj.spec = spec;
  if (!spec.podName) throw bad('podName can not be empty');
  const strategy = (spec.strategy ??= {});
  labels[CRRActiveLabel] = 'true';
  if (!spec.containers || spec.containers.length === 0) throw bad('containers list can not be null');
  if (spec.activeDeadlineSeconds != null && spec.activeDeadlineSeconds < minDeadlineSeconds) {
    throw bad(`activeDeadlineSeconds can not be less than ${minDeadlineSeconds}s`);
  }
  if (strategy.terminationGracePeriodSeconds != null && strategy.terminationGracePeriodSeconds < 0) {
    throw bad('terminationGracePeriodSeconds must be non-negative integer');
  }
  if (strategy.unreadyGracePeriodSeconds != null && strategy.unreadyGracePeriodSeconds < 0) {
    throw bad('unreadyGracePeriodSeconds must be non-negative integer');
  }
  if (!strategy.failurePolicy) strategy.failurePolicy = 'Fail';
  else if (strategy.failurePolicy !== 'Fail' && strategy.failurePolicy !== 'Ignore') throw bad(`unknown failurePolicy ${strategy.failurePolicy}`);

  const pod = ctx.getPod(meta.namespace || ctx.namespace || '', spec.podName);
  if (!pod) throw bad(`no found Pod named ${spec.podName}`);
  if (!isPodActive(pod) && !hasCondition(pod, SidecarTerminatedConditionType)) {
    throw bad('not allowed to recreate containers in an inactive Pod');
  }
  const nodeName = pod.spec?.nodeName ?? '';
  if (nodeName === '') throw bad('not allowed to recreate containers in a pending Pod');
  const node = ctx.getNode(nodeName);
  // Upstream wraps the apiserver's NotFound error text.
  if (!node) throw bad(`failed to get Node ${nodeName}: nodes "${nodeName}" not found`);

  labels[CRRNodeNameLabel] = nodeName;
  labels[CRRPodUIDLabel] = pod.metadata?.uid ?? '';
  if (node.metadata?.labels?.[CRRVirtualKubeletLabelKey] === CRRVirtualKubeletLabelValue) {
    labels[CRRVirtualKubeletLabelKey] = CRRVirtualKubeletLabelValue;
  }
  if (strategy.terminationGracePeriodSeconds == null && pod.spec?.terminationGracePeriodSeconds != null) {
    strategy.terminationGracePeriodSeconds = pod.spec.terminationGracePeriodSeconds;
  }
  // Upstream declares a "recreate X multi times" check but never records names, so duplicates pass; so do we.
  // Looked up by name, first one winning as upstream's scans do: a scan per requested container would cost
  // (requested containers) × (pod containers).
  const podContainers = firstByName(pod.spec?.containers ?? []);
  const statuses = firstByName(pod.status?.containerStatuses ?? []);
  for (const c of spec.containers) {
    if (c.preStop != null || c.ports != null || c.statusContext != null) {
      throw bad('preStop, ports, statusContext in container are ready-only fields');
    }
    const podContainer = podContainers.get(c.name);
    if (!podContainer) throw bad(`container ${c.name} not found in Pod`);
    const status = statuses.get(c.name);
    if (!status) throw bad(`not found ${c.name} containerStatus in Pod Status`);
    if (!status.containerID) throw bad(`no containerID in ${c.name} containerStatus, maybe the container has not been initialized`);
    const preStop = podContainer.lifecycle?.preStop;
    if (preStop) {
      c.preStop = {};
      if (preStop.exec) c.preStop.exec = preStop.exec;
      if (preStop.httpGet) c.preStop.httpGet = preStop.httpGet;
      if (preStop.tcpSocket) c.preStop.tcpSocket = preStop.tcpSocket;
    }
    if (c.preStop?.httpGet && podContainer.ports) c.ports = podContainer.ports;
    c.statusContext = { containerID: status.containerID, restartCount: status.restartCount ?? 0 };
  }
  return obj;
}

function firstByName<T extends { name: string }>(items: readonly T[]): Map<string, T> {
  const byName = new Map<string, T>();
  for (const item of items) if (!byName.has(item.name)) byName.set(item.name, item);
  return byName;
}

function isPodActive(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return phase !== 'Succeeded' && phase !== 'Failed' && pod.metadata?.deletionTimestamp == null;
}

const hasCondition = (pod: Pod, type: string): boolean => (pod.status?.conditions ?? []).some((c) => c.type === type);
