// The admission benchmark's kruise-ts server: buildApp with the production handler table and the production logger
// at info (to stdout, which the benchmark discards), 100 SidecarSets in static caches, 10 of them selecting the pods.
import { createLogger } from '../../shared/log.js';
import { buildApp } from '../../webhook/app.js';
import { admissionCaches, staticCache } from '../../webhook/caches.js';
import { makeRoutes } from '../../webhook/handlers/index.js';
import { createMetrics } from '../../webhook/metrics.js';
import { sidecarSets } from './fixtures.js';
import { readTls, serve } from './serve.js';

const app = buildApp({
  log: createLogger({ level: 'info', name: 'kruise-webhook' }),
  metrics: createMetrics(),
  readiness: () => null,
  tls: await readTls(),
  routes: makeRoutes({
    caches: admissionCaches(
      {
        sidecarSets: staticCache(sidecarSets(100, 10) as never[]),
        namespaces: staticCache([{ metadata: { name: 'default', labels: { 'kubernetes.io/metadata.name': 'default' } } }]),
        revisions: staticCache([]),
        configMaps: staticCache([]),
      },
      { fetchPod: async () => undefined, fetchNode: async () => undefined },
    ),
    gates: { KruiseDaemon: true, ImagePullJobGate: true, ResourceDistributionGate: false, SidecarSetPatchPodMetadataDefaultsAllowed: false },
    // The real clock: the hash annotations' timestamp changes every second, as in production.
    now: () => new Date(),
    random: Math.random,
  }),
});
await serve(app);
