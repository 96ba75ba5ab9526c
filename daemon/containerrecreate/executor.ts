// The daemon's ContainerRecreateRequest executor: node-scoped caches → keyed queue (`<namespace>/<podName>`) →
// CrrSyncer, with upstream's worker count and retry backoff (spec/daemon-and-controllers.md §1.5). Wiring in the
// daemon (daemon/containerrecreate/controller.ts, with the KubeRest-based ports of kube-adapters.ts):
//
//   const crr = startContainerRecreateExecutor({ nodeName, runtimes: new Map([[name, runtime]]), log, signal,
//     ...restExecutorPorts({ rest, informers, nodeName, log }) });
//   syncedCheck('crrInformerSynced', crr.isSynced);
//   await crr.done;
import type { V1Pod } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { ContainerRecreateRequest } from '../../shared/api/container-recreate-request.js';
import { realClock, type Clock } from '../../shared/clock.js';
import type { Cache } from '../../shared/kube/informer.js';
import { objectKey } from '../../shared/kube/keys.js';
import { ExponentialFailureRateLimiter } from '../../shared/reconcile/backoff.js';
import { WorkQueue } from '../../shared/reconcile/queue.js';
import { runReconciler } from '../../shared/reconcile/runner.js';
import type { RuntimeService } from '../cri/runtime.js';
import { ResourceVersionExpectations } from './expectations.js';
import type { CrrEvent } from './kill.js';
import type { CrrWriter } from './kube-adapters.js';
import type { HttpGet } from './prestop.js';
import { podMatches } from './sync-plan.js';
import { CrrSyncer, type ExecutorOutcome } from './syncer.js';

export type { ExecutorOutcome } from './syncer.js';

/** Upstream runs 32 workers; one pod's CRRs are still handled one at a time (the queue key is the pod). */
export const CRR_WORKERS = 32;
/** Per-key retry backoff 500 ms → 50 s plus up to 5 s of jitter (spec §1.5). */
const BACKOFF_BASE_MS = 500;
const BACKOFF_MAX_MS = 50_000;

export interface ContainerRecreateExecutorDeps {
  nodeName: string;
  /** Runtime name (the containerID scheme, e.g. `containerd`) → CRI runtime service. */
  runtimes: ReadonlyMap<string, RuntimeService>;
  log: Logger;
  signal: AbortSignal;
  clock?: Clock;
  /** Node-scoped caches: active CRRs labelled with this node, pods bound to it. */
  caches: { crrs: Cache<ContainerRecreateRequest>; pods: Cache<V1Pod> };
  /** Event sink (core/v1 Events from `kruise-daemon-crr`). */
  emitEvent: (e: CrrEvent) => void;
  /** Status writer (the CRR status subresource). */
  writer: CrrWriter;
  /** Pod lookup used to confirm a pod the cache does not show (a GET; undefined when not found). */
  getPod: (namespace: string, name: string) => Promise<V1Pod | undefined>;
  /** Metrics hook: every kill and every CRR the daemon completes. */
  onOutcome?: (o: ExecutorOutcome) => void;
  /** Registry for the runner's controller-runtime metrics (controller name `crr-daemon`). */
  metrics?: Registry;
  workers?: number;
  random?: () => number;
  httpGet?: HttpGet;
}

export interface ContainerRecreateExecutor {
  /** Resolves once both caches have listed. */
  synced: Promise<void>;
  isSynced(): boolean;
  /** Resolves after `signal` aborts and in-flight syncs have finished. */
  done: Promise<void>;
  /** The pod key queue, exposed for tests and metrics. */
  queue: WorkQueue;
}

const finished = (crr: ContainerRecreateRequest) => !!crr.metadata?.deletionTimestamp || !!crr.status?.completionTime;

export function startContainerRecreateExecutor(deps: ContainerRecreateExecutorDeps): ContainerRecreateExecutor {
  const clock = deps.clock ?? realClock;
  const base = deps.log.child({ node: deps.nodeName });
  const log = base.child({ controller: 'crr-daemon' });
  const { caches, getPod } = deps;
  const expectations = new ResourceVersionExpectations(() => clock.now());
  const jitter = Math.floor((deps.random ?? Math.random)() * 5_000);
  const queue = new WorkQueue({ clock, rateLimiter: new ExponentialFailureRateLimiter(BACKOFF_BASE_MS, BACKOFF_MAX_MS + jitter) });

  const podKey = (crr: ContainerRecreateRequest) => `${crr.metadata?.namespace ?? ''}/${crr.spec?.podName ?? ''}`;
  caches.crrs.onChange((crr) => {
    const key = objectKey(crr);
    if (!caches.crrs.get(key)) expectations.delete(key);
    if (!finished(crr) && crr.spec?.podName) queue.add(podKey(crr));
    log.trace({ crr: key, resourceVersion: crr.metadata?.resourceVersion, phase: crr.status?.phase }, 'CRR event');
  });

  const syncer = new CrrSyncer({
    crrsForPod: (namespace, podName) =>
      caches.crrs.list().filter((c) => c.metadata?.namespace === namespace && c.spec?.podName === podName),
    // The pod informer may lag the CRR informer, so a pod the cache does not show is confirmed with a GET.
    podPresent: async (crr) => {
      const ns = crr.metadata?.namespace ?? '';
      const name = crr.spec?.podName ?? '';
      return podMatches(crr, caches.pods.get(`${ns}/${name}`)) || podMatches(crr, await getPod(ns, name));
    },
    runtimes: deps.runtimes,
    writer: deps.writer,
    expectations,
    emitEvent: deps.emitEvent,
    now: () => clock.now(),
    log,
    httpGet: deps.httpGet,
    onOutcome: deps.onOutcome,
  });

  const synced = Promise.all([caches.crrs.synced, caches.pods.synced]).then(() => undefined);
  const done = (async () => {
    await Promise.race([synced, new Promise<void>((r) => deps.signal.addEventListener('abort', () => r(), { once: true }))]);
    if (deps.signal.aborted) return;
    log.info({ crrs: caches.crrs.list().length }, 'caches synced; starting CRR workers');
    // CRRs listed before the handler was registered are enqueued by the informer's add events; this covers a
    // cache that was prebuilt and already synced.
    for (const crr of caches.crrs.list()) if (!finished(crr) && crr.spec?.podName) queue.add(podKey(crr));
    await runReconciler({
      name: 'crr-daemon', queue, workers: deps.workers ?? CRR_WORKERS, log: base, metrics: deps.metrics, signal: deps.signal, clock,
      reconcile: (key, ctx) => syncer.sync(key, ctx.log),
    });
  })();

  return { synced, isSynced: () => caches.crrs.isSynced() && caches.pods.isSynced(), done, queue };
}
