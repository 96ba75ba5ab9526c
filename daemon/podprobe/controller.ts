// Wiring of the node's prober (spec §6.1) into the daemon: an informer on the one NodePodProbe named after the node,
// two keyed queues with the daemon's backoff — spec sync (workers) and status sync (results → status) — each with
// one worker, the daemon's CRI runtime for exec probes and container lookups, its event recorder and metrics.
import { isDeepStrictEqual } from 'node:util';
import type { NodePodProbe } from '../../shared/api/node-pod-probe.js';
import { realClock, type Clock } from '../../shared/clock.js';
import { eventRecorder } from '../../shared/kube/event-recorder.js';
import { resources } from '../../shared/kube/resources.js';
import type { KubeRest } from '../../shared/kube/rest.js';
import { WorkQueue } from '../../shared/reconcile/queue.js';
import { runReconciler } from '../../shared/reconcile/runner.js';
import type { DaemonContext, NodeController } from '../context.js';
import { syncedCheck } from '../health.js';
import { daemonRateLimiter } from '../rate-limiter.js';
import { ProbeResults } from './results.js';
import type { ProbeEvent } from './status.js';
import { statusSync, type NodePodProbeApi } from './status-sync.js';
import { ProbeWorkers } from './workers.js';

/** Upstream's event source component. */
export const PODPROBE_COMPONENT = 'kruise-daemon-podprobe';
const STATUS_KEY = 'updateStatus';

type Npp = NodePodProbe & { metadata: object };

export function restNodePodProbeApi(rest: KubeRest): NodePodProbeApi {
  return {
    get: (name) => rest.find<Npp>(resources.nodePodProbes, { name }),
    replaceStatus: (npp) => rest.replace<Npp>(resources.nodePodProbes, npp as Npp, { subresource: 'status' }),
  };
}

/** `clock` and `random` are injected by tests; the daemon runs on the real ones. */
export function startPodProbe(ctx: DaemonContext, opts: { clock?: Clock; random?: () => number } = {}): NodeController {
  const { signal } = ctx;
  const clock = opts.clock ?? realClock;
  const random = opts.random ?? Math.random;
  const { nodeName } = ctx.config;
  const log = ctx.log.child({ controller: 'podprobe' });
  const npps = ctx.informers.cache<Npp>(resources.nodePodProbes, { fieldSelector: `metadata.name=${nodeName}` });
  const specQueue = new WorkQueue({ clock, rateLimiter: daemonRateLimiter(random) });
  const statusQueue = new WorkQueue({ clock, rateLimiter: daemonRateLimiter(random) });
  const results = new ProbeResults({ clock, onStored: () => statusQueue.add(STATUS_KEY) });
  const { probeDuration, probeWorkers, probeStatusWrites } = ctx.metrics;
  const workers = new ProbeWorkers({
    runtime: ctx.cri.runtime, results, clock, random, daemonStartMs: clock.now(), log,
    observe: (kind, result, seconds) => probeDuration.observe({ probe_type: kind, result }, seconds),
  });

  // Upstream: Add → sync; Update → only when the spec changed (our own status writes do not re-sync); Delete → nothing
  // (the workers keep running until a spec without them arrives, §6.2); deleting objects are never synced.
  let seenSpec: unknown;
  npps.onChange((obj, verb) => {
    if (verb === 'delete' || obj.metadata?.deletionTimestamp) return;
    if (verb === 'update' && isDeepStrictEqual(seenSpec, obj.spec)) return;
    seenSpec = structuredClone(obj.spec);
    specQueue.add(nodeName);
  });

  const recorder = eventRecorder({ rest: ctx.rest, component: PODPROBE_COMPONENT, host: nodeName, log });
  const emit = ({ involvedObject: o, type, reason, message }: ProbeEvent) =>
    recorder.event({ apiVersion: o.apiVersion, kind: o.kind, metadata: { name: o.name, namespace: o.namespace, uid: o.uid } }, type, reason, message);
  const syncStatus = statusSync({ nodeName, cached: () => npps.get(nodeName), api: restNodePodProbeApi(ctx.rest), results, emit, clock });

  const done = (async () => {
    await Promise.all([
      runReconciler({
        name: 'nodepodprobe', queue: specQueue, workers: 1, log: ctx.log, metrics: ctx.metrics.registry, signal, clock,
        reconcile: async () => {
          const npp = npps.get(nodeName);
          if (!npp) return {};
          const changes = workers.sync(npp);
          probeWorkers.set(workers.size);
          if (changes.started || changes.updated || changes.stopped) log.info({ ...changes, workers: workers.size }, 'probe workers synced');
          statusQueue.add(STATUS_KEY);
          return {};
        },
      }),
      runReconciler({
        name: 'nodepodprobe-status', queue: statusQueue, workers: 1, log: ctx.log, metrics: ctx.metrics.registry, signal, clock,
        reconcile: async () => {
          const before = syncStatus.writes();
          try {
            await syncStatus();
          } catch (err) {
            probeStatusWrites.inc({ result: 'failed' });
            throw err;
          }
          if (syncStatus.writes() > before) probeStatusWrites.inc({ result: 'succeeded' }, syncStatus.writes() - before);
          return {};
        },
      }),
    ]);
    // In-flight probes end on their own timeouts (the CRI connection closes after this); nothing is published after stop.
    void workers.stopAll();
    probeWorkers.set(0);
  })();

  return { name: 'podprobe', healthChecks: [syncedCheck('nodePodProbeInformerSynced', npps.isSynced)], done };
}
