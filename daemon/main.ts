// Composition root of the node daemon (kruise-daemon): the only place that reads process.env, handles signals or
// exits. One process per node: the CRI connection, node-scoped informers and the node-local controllers.
import { setMaxListeners } from 'node:events';
import { configOrExit, loadDaemonConfig } from '../shared/config.js';
import { cacheProbes } from '../shared/kube/cache-health.js';
import { informerFactory } from '../shared/kube/informer-factory.js';
import { loadApiServer } from '../shared/kube/kubeconfig.js';
import { makeRest } from '../shared/kube/rest.js';
import { createLogger } from '../shared/log.js';
import { VERSION } from '../shared/version.js';
import type { DaemonContext, NodeController } from './context.js';
import { startContainerRecreate } from './containerrecreate/controller.js';
import { connectRuntime } from './cri/connect.js';
import { startHealthServer, type HealthCheck } from './health.js';
import { startMetricsServer } from '../shared/metrics-server.js';
import { startImagePuller } from './imagepuller/controller.js';
import { createDaemonMetrics } from './metrics.js';
import { startPodProbe } from './podprobe/controller.js';

/** The manifest's terminationGracePeriodSeconds is 10: leave room to exit on our own before SIGKILL. */
const SHUTDOWN_GRACE_MS = 8_000;
const CRI_CHECK_TIMEOUT_MS = 5_000;

async function main(): Promise<void> {
  const cfg = configOrExit(loadDaemonConfig, process.env);
  const log = createLogger({ level: cfg.logLevel, name: 'kruise-daemon' });
  // Upstream's names are accepted so an OpenKruise value keeps working; say once which of them change nothing here.
  if (cfg.unimplementedGates.length) log.warn({ gates: cfg.unimplementedGates }, 'feature gates accepted without effect: kruise-ts has no such feature');
  const stop = new AbortController();
  // Every informer, queue and pull listens on this one signal; the default cap of 10 would warn about a non-leak.
  setMaxListeners(256, stop.signal);
  const metrics = createDaemonMetrics({ defaultMetrics: true });

  const runtime = await connectRuntime({ endpoint: cfg.criEndpoint, socketFile: cfg.criSocketFile });
  log.info({ node: cfg.nodeName, socket: runtime.socketPath, runtime: runtime.runtimeName }, 'connected to the container runtime');
  // Its own kubeconfig / service-account loader and REST watches: nothing of client-node is loaded (idle RSS).
  const rest = makeRest(loadApiServer(cfg, process.env), {
    userAgent: `kruise-daemon/${VERSION}`, timeoutMs: cfg.apiTimeoutMs, watchIdleTimeoutMs: cfg.watchIdleTimeoutMs,
  });
  const informers = informerFactory({ rest, signal: stop.signal, log });
  const ctx: DaemonContext = {
    config: cfg, log, rest, informers,
    cri: runtime.cri, runtimeName: runtime.runtimeName, metrics, signal: stop.signal,
  };

  // The node-local controllers, in upstream's order.
  const controllers: NodeController[] = [startImagePuller(ctx), startContainerRecreate(ctx)];
  // The NodePodProbe prober (PodProbeMarker's node side), as upstream only with PodProbeMarkerGate (default on).
  if (cfg.featureGates.PodProbeMarkerGate) controllers.push(startPodProbe(ctx));

  const criReachable: HealthCheck = { name: 'criReachable', check: async () => { await runtime.cri.runtime.version({ timeoutMs: CRI_CHECK_TIMEOUT_MS }); } };
  // /healthz is the daemon's liveness probe: a cache silent past the liveness window gets the daemon restarted.
  const probes = cacheProbes(informers, { staleAfterMs: cfg.healthStaleAfterMs, livenessStaleAfterMs: cfg.livenessStaleAfterMs });
  const informersFresh: HealthCheck = { name: 'informersFresh', check: () => { const reason = probes.liveness(); if (reason) throw new Error(reason); } };
  const health = await startHealthServer({
    host: cfg.bindAddress, port: cfg.healthPort, registry: metrics.registry, log,
    checks: () => [...controllers.flatMap((c) => c.healthChecks), informersFresh, criReachable],
  });
  // Host network: health stays on the node's loopback for the kubelet while Prometheus scrapes METRICS_BIND_ADDRESS.
  const metricsServer = cfg.metricsListen && await startMetricsServer({ ...cfg.metricsListen, registry: metrics.registry });
  log.info({ version: VERSION, bind: cfg.bindAddress, port: health.port, metrics: cfg.metricsListen, controllers: controllers.map((c) => c.name) }, 'daemon started');

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    log.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      log.warn('controllers did not stop in time; exiting');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS);
    force.unref();
    stop.abort();
    void Promise.allSettled(controllers.map((c) => c.done))
      .then(() => Promise.allSettled([health.close(), metricsServer?.close()]))
      .finally(() => {
        runtime.cri.close();
        log.info('stopped');
        process.exit(0);
      });
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((err) => {
  process.stderr.write(`kruise-daemon failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
