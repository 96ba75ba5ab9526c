// Wiring of the CRR executor into the daemon process: the node-scoped caches come from the daemon's shared
// informers, every write goes through KubeRest (kube-adapters.ts), and finished CRRs are counted in
// `kruise_daemon_crr_outcomes_total`.
import type { DaemonContext, NodeController } from '../context.js';
import { syncedCheck } from '../health.js';
import { startContainerRecreateExecutor } from './executor.js';
import { restExecutorPorts } from './kube-adapters.js';

export function startContainerRecreate(ctx: DaemonContext): NodeController {
  const { nodeName } = ctx.config;
  const executor = startContainerRecreateExecutor({
    nodeName, runtimes: new Map([[ctx.runtimeName, ctx.cri.runtime]]), log: ctx.log, signal: ctx.signal, metrics: ctx.metrics.registry,
    ...restExecutorPorts({ rest: ctx.rest, informers: ctx.informers, nodeName, log: ctx.log }),
    onOutcome: (o) => { if (o.kind === 'complete') ctx.metrics.crrOutcomes.inc({ result: o.result }); },
  });
  return { name: 'containerrecreate', healthChecks: [syncedCheck('crrInformerSynced', executor.isSynced)], done: executor.done };
}
