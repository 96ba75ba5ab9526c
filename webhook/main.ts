// Composition root of the admission webhook: the only place that reads process.env, handles signals or exits.
import { setMaxListeners } from 'node:events';
import type { KubernetesObject } from '@kubernetes/client-node';
import { configOrExit, loadConfig, type Config } from '../shared/config.js';
import { createLogger, type Logger } from '../shared/log.js';
import { VERSION } from '../shared/version.js';
import { cacheProbes } from '../shared/kube/cache-health.js';
import { makeKube, type Kube } from '../shared/kube/client.js';
import { informerFactory } from '../shared/kube/informer-factory.js';
import { makeRest, type KubeRest } from '../shared/kube/rest.js';
import { resources, withTypeMeta } from '../shared/kube/resources.js';
import { sidecarSetCacheForm } from '../shared/kube/sidecarset-cache.js';
import { systemClock } from '../certs/clock.js';
import { fileSource } from '../certs/file-source.js';
import { selfSignedSource } from '../certs/self-signed-source.js';
import { fsStore, secretStore } from '../certs/store.js';
import { webhookCaBundles } from '../certs/webhook-config.js';
import { allCaBundles, crdCaBundles, forbiddenAsAbsent, type Crd, type CrdApi } from '../certs/crd-conversion.js';
import { certWriterProblem } from '../certs/writer-check.js';
import { identityOnly, watchCaBundleObjects } from '../certs/config-watch.js';
import { buildApp } from './app.js';
import { drainThenClose } from './drain.js';
import { startAdmissionCaches, type AdmissionCaches } from './caches.js';
import type { PodUnavailableBudget } from '../shared/api/pod-unavailable-budget.js';
import { controllerOf } from '../shared/domain/pub/related.js';
import { pubSpender, type SpendRequest, type SpendResult } from '../shared/domain/pub/spend.js';
import { isConflict, isNotFound } from '../shared/kube/rest.js';
import { deletionCounter } from './deletion-counts.js';
import { makeRoutes } from './handlers/index.js';
import { subjectAccess } from './subject-access.js';
import { buildHealthApp } from './health.js';
import { createMetrics } from './metrics.js';
import { startMetricsServer } from '../shared/metrics-server.js';
import { attachCertificateSource, firstCertificate, type CertificateSource } from './tls.js';
import type { AdmissionPool } from './pool/pool.js';
import { rpcHost } from './pool/rpc.js';
import { poolSize } from './pool/size.js';
import { startAdmissionPool } from './pool/start.js';

/** The CRD calls the conversion-webhook patcher makes, through the project's REST client (timeouts on every call). */
function crdApi(rest: KubeRest): CrdApi {
  return {
    get: (name) => rest.find<Crd & KubernetesObject>(resources.customResourceDefinitions, { name }),
    mergePatch: async (name, body) => { await rest.patch(resources.customResourceDefinitions, { name }, 'merge', body); },
  };
}

function certificateSource(config: Config, kube: Kube, rest: KubeRest, log: Logger, signal: AbortSignal): CertificateSource {
  const clock = systemClock;
  const certLog = log.child({ component: 'certs' });
  if (config.certWriter === 'external') return fileSource({ dir: config.certDir, clock, log: certLog });
  const writerProblem = certWriterProblem(config.certWriter, config.webhookHost);
  if (writerProblem) throw new Error(writerProblem);
  // In-cluster the apiserver reaches us through the Service DNS name; outside it, through WEBHOOK_HOST.
  const host = config.webhookHost ?? `${config.serviceName}.${config.namespace}.svc`;
  const store = config.certWriter === 'fs' ? fsStore(config.certDir, clock.now) : secretStore(kube.core, config.namespace, config.secretName);
  const target = {
    ...(config.webhookHost ? { host: config.webhookHost } : {}),
    port: config.webhookPort,
    service: { namespace: config.namespace, name: config.serviceName },
  };
  // The webhook configurations and the conversion webhook of the CRDs that use one trust the same CAs (§9.3).
  const caBundle = allCaBundles([
    webhookCaBundles(kube.admission, target, (r) => {
      if (r.updated.length) certLog.info({ updated: r.updated }, 'patched webhook configurations');
      if (r.missing.length) certLog.warn({ missing: r.missing }, 'webhook configurations not found; will retry');
    }),
    crdCaBundles(forbiddenAsAbsent(crdApi(rest), (name) => certLog.warn({ crd: name }, 'may not read the CRD: its conversion webhook is left as it is (RBAC of an older chart?)')), target, (r) => {
      if (r.updated.length) certLog.info({ updated: r.updated }, 'patched CRD conversion webhooks');
    }),
  ]);
  const source = selfSignedSource({ store, caBundle, host, renewBeforeMs: config.renewBeforeMs, clock, log: certLog });
  // A configuration or CRD changed by someone else (a helm upgrade adding webhooks) gets its caBundle at once, not at
  // the next resync. Informers of their own: they are not admission caches, and readiness does not wait for them.
  watchCaBundleObjects(informerFactory({ rest, signal, log: certLog, transform: () => identityOnly }), () => source.resync());
  return source;
}

/** Admission waits this long for one API call it makes (dry-run, SubjectAccessReview); the apiserver's own is 10 s. */
const ADMISSION_CALL_TIMEOUT_MS = 3_000;

/** `p`, or a rejection once `ms` have passed (the request itself is left to the client's own timeout). */
function withinMs<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms); });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

/**
 * The apiserver's own message from a failed call: never client-node's exception text, which quotes the whole response
 * and its headers.
 */
function apiMessage(err: unknown): string {
  const body = (err as { body?: unknown }).body;
  let status: unknown = body;
  if (typeof body === 'string') { try { status = JSON.parse(body); } catch { status = undefined; } }
  const message = (status as { message?: unknown } | undefined)?.message;
  if (typeof message === 'string') return message;
  const code = (err as { code?: unknown }).code;
  return typeof code === 'number' ? `HTTP ${code}` : err instanceof Error && !('body' in err) ? err.message : 'request failed';
}

/** Upstream dry-run-creates a ResourceDistribution's resource in the kruise namespace; AlreadyExists is fine. */
function dryRunCreate(kube: Kube, namespace: string) {
  return async (resource: Record<string, unknown>): Promise<string | undefined> => {
    const metadata = { ...((resource.metadata as object | undefined) ?? {}), namespace };
    try {
      await withinMs(kube.objects.create({ ...resource, metadata } as never, undefined, 'All'), ADMISSION_CALL_TIMEOUT_MS, 'dry-run create');
      return undefined;
    } catch (err) {
      if ((err as { code?: number }).code === 409) return undefined;
      return apiMessage(err);
    }
  };
}

/** The whole spend of one PUB unit (4 attempts 500 ms apart) gives up after this, under the worker's 8 s RPC wait. */
const PUB_SPEND_DEADLINE_MS = 6_000;

/**
 * The PUB budget spender and the ReplicaSet-owner read of /mutate-pod, on main (one per process, so the per-PUB lock
 * and the remembered copies cover every worker), over a REST client whose every call times out at the admission
 * call's bound. A spend past the deadline is refused; a write already sent may still land (budget spent, never
 * over-spent).
 */
function pubCalls(kube: Kube, caches: AdmissionCaches) {
  const rest = makeRest(kube.kc, { timeoutMs: ADMISSION_CALL_TIMEOUT_MS, userAgent: `kruise-webhook/${VERSION}` });
  type PubObj = PodUnavailableBudget & KubernetesObject;
  const spender = pubSpender({
    store: {
      cached: caches.pub,
      get: (namespace, name) => rest.find<PubObj>(resources.podUnavailableBudgets, { namespace, name }),
      updateStatus: (pub) => rest.replace(resources.podUnavailableBudgets, withTypeMeta(resources.podUnavailableBudgets, pub as PubObj), { subresource: 'status' }),
    },
    now: () => Date.now(),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    isConflict, isNotFound, message: apiMessage,
  });
  return {
    spendPub: (r: SpendRequest): Promise<SpendResult> => withinMs(spender.spend(r), PUB_SPEND_DEADLINE_MS, `spend PodUnavailableBudget ${r.namespace}/${r.pubName}`)
      .catch((err: unknown) => ({ allowed: false as const, message: err instanceof Error ? err.message : String(err) })),
    replicaSetOwner: async (namespace: string, name: string) => {
      const rs = await withinMs(rest.find<KubernetesObject>(resources.replicaSets, { namespace, name }), ADMISSION_CALL_TIMEOUT_MS, 'get replicaset');
      return rs ? controllerOf(rs as Parameters<typeof controllerOf>[0]) : undefined;
    },
  };
}

/** SubjectAccessReviews over their own REST client, whose timeout is the admission call's (review N-L3). */
function sarClient(kube: Kube) {
  const rest = makeRest(kube.kc, { timeoutMs: ADMISSION_CALL_TIMEOUT_MS, userAgent: `kruise-webhook/${VERSION}` });
  return subjectAccess(rest, { now: () => Date.now() });
}

async function main(): Promise<void> {
  const config = configOrExit(loadConfig, process.env);
  const log = createLogger({ level: config.logLevel, name: 'kruise-webhook' });
  // Upstream's names are accepted so an OpenKruise value keeps working; say once which of them change nothing here.
  if (config.unimplementedGates.length) log.warn({ gates: config.unimplementedGates }, 'feature gates accepted without effect: kruise-ts has no such feature');
  const kube = makeKube(config, process.env);
  const stop = new AbortController();
  // Every informer and timer listens on this one signal; the default cap of 10 would warn about a non-leak.
  setMaxListeners(64, stop.signal);
  const metrics = createMetrics({ defaultMetrics: true });
  // The caches read through the project's REST client (timeouts, bookmarks, idle watches re-opened), over the same
  // credentials as client-node's clients.
  const rest = makeRest(kube.kc, { timeoutMs: config.apiTimeoutMs, watchIdleTimeoutMs: config.watchIdleTimeoutMs, userAgent: `kruise-webhook/${VERSION}` });
  // SidecarSets are cached in the internal form, whichever version is listed (shared/kube/sidecarset-cache.ts).
  const informers = informerFactory({ rest, signal: stop.signal, log, transform: (r) => (r === resources.sidecarSets ? sidecarSetCacheForm : undefined) });
  const pubGate = config.featureGates.PodUnavailableBudgetDeleteGate || config.featureGates.PodUnavailableBudgetUpdateGate;
  const caches = startAdmissionCaches(informers, rest, config.namespace, { pubs: pubGate, workloadSpreads: config.featureGates.WorkloadSpread && config.featureGates.PodWebhook });
  const windows = { staleAfterMs: config.healthStaleAfterMs, livenessStaleAfterMs: config.livenessStaleAfterMs };
  const probes = cacheProbes(caches, windows);
  // Ready without the SidecarSets, so that /convert is reachable to list them (caches.ts readinessHealth).
  const readyProbes = cacheProbes(caches.readinessHealth, windows);
  const source = certificateSource(config, kube, rest, log, stop.signal);
  void source.start(stop.signal);

  const drain = { draining: false };
  // Set once the certificate is there and the pool starts; readiness asks it from then on.
  const started: { pool?: AdmissionPool } = {};
  const readiness = () => (drain.draining ? 'shutting down' : null) ?? readyProbes.readiness() ?? (source.healthy() ? null : (source.problem?.() ?? 'no valid serving certificate'))
    ?? (started.pool && started.pool.stats().ready === 0 ? 'no admission worker ready' : null);
  const health = buildHealthApp({ log, readiness, liveness: probes.liveness, metrics });
  await health.listen({ host: config.bindAddress, port: config.healthPort });
  const metricsServer = config.metricsListen && await startMetricsServer({ ...config.metricsListen, registry: metrics.registry });

  log.info({ writer: config.certWriter }, 'waiting for the serving certificate');
  const first = await firstCertificate(source, stop.signal);
  if (!first) return;
  const calls = { dryRunCreate: dryRunCreate(kube, config.namespace), canWrite: sarClient(kube), ...(pubGate ? pubCalls(kube, caches) : {}),
    // Only Cascading namespaces and CRDs count anything (ResourcesDeletionProtection); paged and time-bounded.
    ...(config.featureGates.ResourcesDeletionProtection ? { countForDeletion: deletionCounter(rest) } : {}) };
  // The handlers run in the pool's workers (webhook/pool/), over snapshots of these caches; the API calls they make
  // come back here as RPCs. The table built here gives the server its paths.
  const routes = makeRoutes({ caches, gates: config.featureGates, now: () => new Date(), random: Math.random, ...calls });
  const size = poolSize(config.webhookWorkers);
  const pool = startAdmissionPool({ size, deadlineMs: config.admissionDeadlineMs, gates: config.featureGates, cacheSet: caches.cacheSet, rpc: rpcHost(caches, calls), registry: metrics.registry, log });
  started.pool = pool;
  const app = buildApp({ log, routes, metrics, executor: pool, limits: config.webhookServer, drain, tls: { key: first.key, cert: first.cert } });
  attachCertificateSource(app.server as unknown as { setSecureContext(o: { key: string; cert: string }): void }, source, { log, metrics });
  await app.listen({ host: config.bindAddress, port: config.webhookPort });
  log.info({ version: VERSION, routes: routes.map((r) => r.path), bind: config.bindAddress, port: config.webhookPort, workers: size, deadlineMs: config.admissionDeadlineMs }, 'webhook serving');

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    log.info({ signal }, 'shutting down');
    // drain.ts: not-ready at once, serve through the drain, then close; the caches keep running until the close.
    const close = () => Promise.allSettled([app.close().then(() => pool.close()), health.close(), metricsServer?.close()]).then(() => stop.abort());
    const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
    void drainThenClose({ state: drain, drainMs: config.drainMs, graceMs: config.shutdownGraceMs, close, delay, log })
      .then((outcome) => process.exit(outcome === 'closed' ? 0 : 1));
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((err) => {
  process.stderr.write(`kruise-webhook failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
