// Composition root of the admission webhook: the only place that reads process.env, handles signals or exits.
import { setMaxListeners } from 'node:events';
import { configOrExit, loadConfig, type Config } from '../shared/config.js';
import { createLogger, type Logger } from '../shared/log.js';
import { VERSION } from '../shared/version.js';
import { cacheProbes } from '../shared/kube/cache-health.js';
import { makeKube, type Kube } from '../shared/kube/client.js';
import { informerFactory } from '../shared/kube/informer-factory.js';
import { makeRest } from '../shared/kube/rest.js';
import { systemClock } from '../certs/clock.js';
import { fileSource } from '../certs/file-source.js';
import { selfSignedSource } from '../certs/self-signed-source.js';
import { fsStore, secretStore } from '../certs/store.js';
import { patchWebhookConfigurations } from '../certs/webhook-config.js';
import { buildApp } from './app.js';
import { startAdmissionCaches } from './caches.js';
import { makeRoutes } from './handlers/index.js';
import { buildHealthApp } from './health.js';
import { createMetrics } from './metrics.js';
import { attachCertificateSource, firstCertificate, type CertificateSource } from './tls.js';

function certificateSource(config: Config, kube: Kube, log: Logger): CertificateSource {
  const clock = systemClock;
  if (config.certWriter === 'external') return fileSource({ dir: config.certDir, clock, log: log.child({ component: 'certs' }) });
  // In-cluster the apiserver reaches us through the Service DNS name; outside it, through WEBHOOK_HOST.
  const host = config.webhookHost ?? `${config.serviceName}.${config.namespace}.svc`;
  const store = config.certWriter === 'fs' ? fsStore(config.certDir, clock.now) : secretStore(kube.core, config.namespace, config.secretName);
  const certLog = log.child({ component: 'certs' });
  return selfSignedSource({
    store,
    host,
    renewBeforeMs: config.renewBeforeMs,
    clock,
    log: certLog,
    publishCA: async (caPem) => {
      const r = await patchWebhookConfigurations(kube.admission, {
        caBundle: Buffer.from(caPem).toString('base64'),
        ...(config.webhookHost ? { host: config.webhookHost } : {}),
        port: config.webhookPort,
        service: { namespace: config.namespace, name: config.serviceName },
      });
      if (r.updated.length) certLog.info({ updated: r.updated }, 'patched webhook configurations');
      if (r.missing.length) certLog.warn({ missing: r.missing }, 'webhook configurations not found; will retry');
    },
  });
}

/** Upstream dry-run-creates a ResourceDistribution's resource in the kruise namespace; AlreadyExists is fine. */
function dryRunCreate(kube: Kube, namespace: string) {
  return async (resource: Record<string, unknown>): Promise<string | undefined> => {
    const metadata = { ...((resource.metadata as object | undefined) ?? {}), namespace };
    try {
      await kube.objects.create({ ...resource, metadata } as never, undefined, 'All');
      return undefined;
    } catch (err) {
      if ((err as { code?: number }).code === 409) return undefined;
      return err instanceof Error ? err.message : String(err);
    }
  };
}

async function main(): Promise<void> {
  const config = configOrExit(loadConfig, process.env);
  const log = createLogger({ level: config.logLevel, name: 'kruise-webhook' });
  const kube = makeKube(config, process.env);
  const stop = new AbortController();
  // Every informer and timer listens on this one signal; the default cap of 10 would warn about a non-leak.
  setMaxListeners(64, stop.signal);
  const metrics = createMetrics({ defaultMetrics: true });
  // The caches read through the project's REST client (timeouts, bookmarks, idle watches re-opened), over the same
  // credentials as client-node's clients.
  const rest = makeRest(kube.kc, { timeoutMs: config.apiTimeoutMs, watchIdleTimeoutMs: config.watchIdleTimeoutMs, userAgent: `kruise-webhook/${VERSION}` });
  const caches = startAdmissionCaches(informerFactory({ rest, signal: stop.signal, log }), rest, config.namespace);
  const probes = cacheProbes(caches, { staleAfterMs: config.healthStaleAfterMs, livenessStaleAfterMs: config.livenessStaleAfterMs });
  const source = certificateSource(config, kube, log);
  void source.start(stop.signal);

  const readiness = () => probes.readiness() ?? (source.healthy() ? null : 'no valid serving certificate');
  const health = buildHealthApp({ log, readiness, liveness: probes.liveness, metrics });
  await health.listen({ host: config.bindAddress, port: config.healthPort });

  log.info({ writer: config.certWriter }, 'waiting for the serving certificate');
  const first = await firstCertificate(source, stop.signal);
  if (!first) return;
  const routes = makeRoutes({ caches, gates: config.featureGates, now: () => new Date(), random: Math.random, dryRunCreate: dryRunCreate(kube, config.namespace) });
  const app = buildApp({ log, routes, metrics, readiness, tls: { key: first.key, cert: first.cert } });
  attachCertificateSource(app.server as unknown as { setSecureContext(o: { key: string; cert: string }): void }, source, { log, metrics });
  await app.listen({ host: config.bindAddress, port: config.webhookPort });
  log.info({ version: VERSION, routes: routes.map((r) => r.path), bind: config.bindAddress, port: config.webhookPort }, 'webhook serving');

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    log.info({ signal }, 'shutting down');
    // Give in-flight reviews a bounded grace period; the apiserver retries or applies failurePolicy after that.
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    stop.abort();
    void Promise.allSettled([app.close(), health.close()]).then(() => process.exit(0));
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((err) => {
  process.stderr.write(`kruise-webhook failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
