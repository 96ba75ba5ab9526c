// A worker entry for the pool's tests (pool.test.ts): the production runtime (worker-runtime.ts) with a table of
// routes that spin, call main, and report what the snapshot caches hold. Not bundled; tests start it through tsx.
import { allowed, denied } from '../admission/response.js';
import type { WebhookRoute } from '../admission/route.js';
import type { RouteDeps } from '../handlers/index.js';
import { runWorker } from './worker-runtime.js';

const route = (path: string, handler: WebhookRoute['handler']): WebhookRoute => ({ path, name: path.slice(1), handler });

function testRoutes(deps: RouteDeps): WebhookRoute[] {
  return [
    route('/allow', () => allowed()),
    route('/spin', () => {
      for (;;) { /* a handler that never returns: only the deadline ends it */ }
    }),
    // What the snapshot caches hold, as the message of a denial.
    route('/snapshot', () => denied(JSON.stringify({
      sidecarSets: deps.caches.sidecarSets().map((s) => s.metadata?.name),
      nsLabels: deps.caches.namespaceLabels('team-a') ?? null,
      whitelist: deps.caches.patchMetadataWhitelist() ?? null,
    }))),
    route('/fetch-pod', async (req) => {
      const pod = await deps.caches.fetchPod(req.namespace ?? 'default', req.name ?? 'p');
      return denied(`pod ${pod?.metadata?.name ?? 'none'} on ${pod?.spec?.nodeName ?? 'none'}`);
    }),
    // Starts a call to main and then spins: its worker is terminated while main still waits on the call.
    route('/rpc-then-spin', () => {
      void deps.caches.fetchPod('default', 'slow').catch(() => {});
      for (;;) { /* spin */ }
    }),
    // Holds ever more memory: only the worker's heap cap ends it.
    route('/hog', () => {
      const held: number[][] = [];
      for (;;) held.push(new Array(1e5).fill(held.length));
    }),
    route('/synced', async () => { await deps.caches.sidecarSetsSynced(1_000); return allowed('synced'); }),
  ];
}

runWorker(testRoutes);
