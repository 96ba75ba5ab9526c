// Composition root of the manager's controllers (the `controller` container of the manager pod; the webhook is the
// other container, webhook/main.ts). The only place that reads process.env, handles signals or exits.
import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { hostname } from 'node:os';
import Fastify from 'fastify';
import { Counter } from 'prom-client';
import { sidecarSetCacheForm } from '../shared/kube/sidecarset-cache.js';
import { realClock } from '../shared/clock.js';
import { configOrExit, loadConfig } from '../shared/config.js';
import { createLogger } from '../shared/log.js';
import { VERSION } from '../shared/version.js';
import { cacheProbes } from '../shared/kube/cache-health.js';
import { eventRecorder } from '../shared/kube/event-recorder.js';
import { informerFactory, type CacheTransform } from '../shared/kube/informer-factory.js';
import { resources } from '../shared/kube/resources.js';
import { runElectionThread } from '../shared/kube/leader-election-thread.js';
import { leaderMetrics } from '../shared/kube/leader-metrics.js';
import { startMetricsServer } from '../shared/metrics-server.js';
import { makeRest } from '../shared/kube/rest.js';
import { apiServer } from './api-server.js';
import { cachedPod } from './cached-pod.js';
import { createManagerRegistry } from './metrics.js';
import type { LeaseThreadData } from './lease-thread.js';
import { secretMetadataOnly } from './cached-secret.js';
import { imagePullJobController } from './imagepulljob/controller.js';
import { resourceDistributionController } from './resourcedistribution/controller.js';
import { controllers as allControllers } from './controllers.js';
import { runControllers, selectControllers } from './run-controllers.js';
import type { Controller, ControllerDeps } from './types.js';
import { quietRequests } from '../shared/quiet-requests.js';

async function main(): Promise<void> {
  const config = configOrExit(loadConfig, process.env);
  const log = createLogger({ level: config.logLevel, name: 'kruise-controller' });
  // Upstream's names are accepted so an OpenKruise value keeps working; say once which of them change nothing here.
  if (config.unimplementedGates.length) log.warn({ gates: config.unimplementedGates }, 'feature gates accepted without effect: kruise-ts has no such feature');
  const controllers = selectControllers(allControllers, config.controllers, config.featureGates);
  const stop = new AbortController();
  setMaxListeners(256, stop.signal);
  const registry = createManagerRegistry();
  // client-go's metric name; watches are not counted (they are long-lived streams, not requests).
  const requests = new Counter({ name: 'rest_client_requests_total', help: 'API requests made, by method', labelNames: ['method'] as const, registers: [registry] });
  const rest = makeRest(await apiServer(config, process.env), {
    onRequest: (method) => requests.inc({ method }), timeoutMs: config.apiTimeoutMs, watchIdleTimeoutMs: config.watchIdleTimeoutMs,
  });
  // Pods are cached in the slim form the controllers read (cached-pod.ts): the cache holds every pod of the cluster.
  // Secrets keep their contents only while a controller that copies them runs (cached-secret.ts).
  const secretContentReaders: readonly Controller[] = [imagePullJobController, resourceDistributionController];
  const secretTransform = controllers.some((c) => secretContentReaders.includes(c)) ? undefined : (secretMetadataOnly as CacheTransform);
  const informers = informerFactory({ rest, signal: stop.signal, log,
    transform: (r) => (r === resources.pods ? (cachedPod as CacheTransform) : r === resources.secrets ? secretTransform : r === resources.sidecarSets ? sidecarSetCacheForm : undefined) });
  const deps: ControllerDeps = {
    rest, informers, log, metrics: registry, clock: realClock, namespace: config.namespace, config,
    events: (component) => eventRecorder({ rest, component, log }),
  };

  let leading = false;
  const probes = cacheProbes(informers, { staleAfterMs: config.healthStaleAfterMs, livenessStaleAfterMs: config.livenessStaleAfterMs });
  const health = Fastify({ loggerInstance: log, ...quietRequests() });
  // A leader whose caches stopped hearing from the apiserver is restarted by the kubelet; a standby has no caches.
  health.get('/healthz', async (req, reply) => {
    const reason = probes.liveness();
    if (reason === null) return 'ok';
    req.log.warn({ reason }, 'liveness check failed');
    return reply.code(500).send(`unhealthy: ${reason}`);
  });
  // A standby replica is ready: it serves nothing until it leads. A leader is ready once its caches listed. Stale
  // caches do not fail readiness here: this container serves no traffic, and the pod's readiness also decides
  // whether the webhook container beside it gets admission requests; liveness restarts a wedged leader instead.
  health.get('/readyz', async (_req, reply) => {
    const reason = leading ? informers.notSynced() : null;
    return reason === null ? 'ok' : reply.code(503).send(`not ready: ${reason}`);
  });
  health.get('/metrics', async (_req, reply) => reply.header('content-type', registry.contentType).send(await registry.metrics()));
  await health.listen({ host: config.bindAddress, port: config.healthPort });
  const metricsServer = config.metricsListen && await startMetricsServer({ ...config.metricsListen, registry });

  let closing = false;
  const shutdown = (signal: string, code = 0) => {
    if (closing) return;
    closing = true;
    log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(code || 1), 15_000);
    force.unref();
    stop.abort();
    void Promise.allSettled([done, health.close(), metricsServer?.close()]).then(() => process.exit(code));
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));

  const lead = async (signal: AbortSignal) => {
    leading = true;
    await runControllers(controllers, deps, signal);
  };
  let done: Promise<void> = Promise.resolve();
  const leaderGauges = leaderMetrics(registry);
  if (!config.leaderElect) {
    log.warn('leader election disabled: run a single replica only');
    leaderGauges.on(config.leaderElectionId);
    done = lead(stop.signal);
  } else {
    const workerData: LeaseThreadData = {
      kubeconfig: config.kubeconfig, env: { ...process.env }, apiTimeoutMs: config.apiTimeoutMs, logLevel: config.logLevel,
      namespace: config.namespace, name: config.leaderElectionId,
      // A restarted pod keeps its name; the suffix keeps it from mistaking the old process's lease for its own.
      identity: `${config.podName ?? hostname()}_${randomUUID()}`,
    };
    // Renewals run on their own thread: a reconcile holding this loop cannot make the lease lapse.
    done = runElectionThread({
      entry: leaseThreadEntry(), workerData, name: config.leaderElectionId, log: log.child({ component: 'leader-election' }), metrics: leaderGauges,
      onStartedLeading: lead,
      onNewLeader: (identity) => log.info({ leader: identity }, 'leader observed'),
      // As controller-runtime: a replica that lost its lease exits, and its restart campaigns afresh with empty queues.
      onStoppedLeading: () => { if (!closing) shutdown('leadership lost', 1); },
    }, stop.signal);
  }
  const gatedOff = allControllers.filter((c) => !controllers.includes(c) && c.featureGate && !config.featureGates[c.featureGate] && !(c.orFeatureGate && config.featureGates[c.orFeatureGate]));
  log.info({ version: VERSION, controllers: controllers.map((c) => c.name), gatedOff: gatedOff.map((c) => `${c.name} (${c.featureGate})`), leaderElect: config.leaderElect },
    'controller manager started');
}

/** lease-thread.ts beside this module: `.ts` from source (tsx), `.mjs` in the bundle (scripts/bundles.ts). */
function leaseThreadEntry(): URL {
  return new URL(import.meta.url.endsWith('.ts') ? './lease-thread.ts' : './lease-thread.mjs', import.meta.url);
}

main().catch((err) => {
  process.stderr.write(`kruise-controller failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
