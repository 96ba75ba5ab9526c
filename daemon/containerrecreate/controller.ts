// Wiring of the CRR executor into the daemon process: the node-scoped caches come from the daemon's shared
// informers, every write goes through KubeRest (plain JSON: no typed client, so the daemon does not load
// client-node's generated models), and finished CRRs are counted in `kruise_daemon_crr_outcomes_total`.
import type { V1Pod } from '@kubernetes/client-node';
import { CRRActiveLabel, CRRNodeNameLabel, type ContainerRecreateRequest } from '../../shared/api/container-recreate-request.js';
import { eventRecorder } from '../../shared/kube/event-recorder.js';
import { resources } from '../../shared/kube/resources.js';
import type { KubeRest } from '../../shared/kube/rest.js';
import type { DaemonContext, NodeController } from '../context.js';
import { syncedCheck } from '../health.js';
import { startContainerRecreateExecutor } from './executor.js';
import type { CrrEvent } from './kill.js';
import type { CrrWriter } from './kube-adapters.js';

export const CRR_COMPONENT = 'kruise-daemon-crr';

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

export function startContainerRecreate(ctx: DaemonContext): NodeController {
  const { nodeName } = ctx.config;
  const crrs = ctx.informers.cache<Crr>(resources.containerRecreateRequests, { labelSelector: `${CRRNodeNameLabel}=${nodeName},${CRRActiveLabel}=true` });
  const pods = ctx.informers.cache<V1Pod>(resources.pods, { fieldSelector: `spec.nodeName=${nodeName}` });
  const recorder = eventRecorder({ rest: ctx.rest, component: CRR_COMPONENT, host: nodeName, log: ctx.log });
  const emitEvent = ({ involvedObject: o, type, reason, message }: CrrEvent) =>
    recorder.event({ apiVersion: o.apiVersion, kind: o.kind, metadata: { name: o.name, namespace: o.namespace, uid: o.uid } }, type, reason, message);
  const executor = startContainerRecreateExecutor({
    nodeName, runtimes: new Map([[ctx.runtimeName, ctx.cri.runtime]]), log: ctx.log, signal: ctx.signal, metrics: ctx.metrics.registry,
    caches: { crrs, pods },
    getPod: (namespace, name) => ctx.rest.find<V1Pod & { metadata: object }>(resources.pods, { namespace, name }),
    writer: restCrrWriter(ctx.rest),
    emitEvent,
    onOutcome: (o) => { if (o.kind === 'complete') ctx.metrics.crrOutcomes.inc({ result: o.result }); },
  });
  return { name: 'containerrecreate', healthChecks: [syncedCheck('crrInformerSynced', executor.isSynced)], done: executor.done };
}
