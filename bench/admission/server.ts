// Child process of the benchmark: serves one of the two targets over HTTPS on 127.0.0.1 and reports its port, and on
// request its CPU time, over the IPC channel. Running it apart from the load generator keeps client and server from
// competing for one event loop (and lets run.ts pin it to its own core).
//   kruise: buildApp with the production handler table, the production logger at info (to stdout, which run.ts
//           discards) and 100 SidecarSets in static caches
//   bare:   plain Fastify with an allow-all handler (the floor: TLS + JSON parse + reply)
import Fastify from 'fastify';
import { Session } from 'node:inspector/promises';
import type { AddressInfo } from 'node:net';
import { createLogger } from '../../shared/log.js';
import { buildApp } from '../../webhook/app.js';
import { admissionCaches, staticCache } from '../../webhook/caches.js';
import { makeRoutes } from '../../webhook/handlers/index.js';
import { createMetrics } from '../../webhook/metrics.js';
import { sidecarSets } from './fixtures.js';

async function readStdin(): Promise<string> {
  let s = '';
  for await (const chunk of process.stdin) s += chunk;
  return s;
}

const { mode, key, cert } = JSON.parse(await readStdin()) as { mode: 'kruise' | 'bare'; key: string; cert: string };

function bareApp() {
  const bare = Fastify({ https: { key, cert } });
  bare.post('/mutate-pod', async (req) => {
    const body = req.body as { apiVersion: string; request: { uid: string } };
    return { apiVersion: body.apiVersion, kind: 'AdmissionReview', response: { uid: body.request.uid, allowed: true } };
  });
  return bare;
}

const app =
  mode === 'bare'
    ? bareApp()
    : buildApp({
        log: createLogger({ level: 'info', name: 'kruise-webhook' }),
        metrics: createMetrics(),
        readiness: () => null,
        tls: { key, cert },
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
          now: () => new Date('2026-01-02T03:04:05Z'),
          random: Math.random,
        }),
      });

if (!app.hasRoute({ method: 'POST', url: '/mutate-pod' })) {
  process.stderr.write('the handler table has no /mutate-pod route yet\n');
  process.exit(3);
}

await app.listen({ host: '127.0.0.1', port: 0 });
process.send!({ port: (app.server.address() as AddressInfo).port });

// Requests from run.ts: {cpu} → process.cpuUsage(); {profile: 'start'|'stop'} → a CPU profile of just the phase in
// between (the inspector's sampler at 100 µs), returned as JSON.
let session: Session | undefined;
process.on('message', (m: { cpu?: boolean; profile?: 'start' | 'stop' }) => {
  if (m.cpu) process.send!({ cpu: process.cpuUsage() });
  if (m.profile === 'start') {
    session = new Session();
    session.connect();
    void (async () => {
      await session.post('Profiler.enable');
      await session.post('Profiler.setSamplingInterval', { interval: 100 });
      await session.post('Profiler.start');
      process.send!({ profiling: true });
    })();
  }
  if (m.profile === 'stop' && session) {
    void session.post('Profiler.stop').then(({ profile }) => {
      session!.disconnect();
      process.send!({ profile: JSON.stringify(profile) });
    });
  }
});
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
process.on('disconnect', () => void app.close().then(() => process.exit(0)));
