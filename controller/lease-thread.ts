// The manager's leader election, as a worker thread (shared/kube/leader-election-thread.ts says why): the composition
// root of that thread. It builds its own API client from the settings main.ts hands over (main.ts alone reads the
// environment), campaigns, renews, and reports to the main thread; it ends after leadership ends or `stop`.
import { parentPort, workerData } from 'node:worker_threads';
import { realClock } from '../shared/clock.js';
import { createLogger } from '../shared/log.js';
import { LeaderElector, type LeaderElectionOptions } from '../shared/kube/leader-election.js';
import type { LeaseThreadCommand, LeaseThreadMessage } from '../shared/kube/leader-election-thread.js';
import { makeRest } from '../shared/kube/rest.js';
import { restLeaseClient } from '../shared/kube/rest-lease-client.js';
import { apiServer } from './api-server.js';

/** What the thread needs: its API client's settings and the election's own options. */
export interface LeaseThreadData extends Pick<LeaderElectionOptions, 'namespace' | 'name' | 'identity' | 'leaseDurationSeconds' | 'renewDeadlineSeconds' | 'retryPeriodSeconds'> {
  kubeconfig: string | undefined;
  /** The environment the in-cluster credentials are read from (KUBERNETES_SERVICE_HOST, …). */
  env: Record<string, string | undefined>;
  apiTimeoutMs: number;
  logLevel: string;
}

async function main(port: NonNullable<typeof parentPort>, d: LeaseThreadData): Promise<void> {
  const post = (m: LeaseThreadMessage) => port.postMessage(m);
  const log = createLogger({ level: d.logLevel, name: 'kruise-controller' }).child({ component: 'leader-election' });
  const rest = makeRest(await apiServer({ kubeconfig: d.kubeconfig }, d.env), { timeoutMs: d.apiTimeoutMs });
  const stop = new AbortController();
  port.on('message', (m: LeaseThreadCommand) => { if (m.type === 'stop') stop.abort(); });
  const elector = new LeaderElector({
    client: restLeaseClient(rest), namespace: d.namespace, name: d.name, identity: d.identity, clock: realClock, log,
    ...(d.leaseDurationSeconds !== undefined && { leaseDurationSeconds: d.leaseDurationSeconds }),
    ...(d.renewDeadlineSeconds !== undefined && { renewDeadlineSeconds: d.renewDeadlineSeconds }),
    ...(d.retryPeriodSeconds !== undefined && { retryPeriodSeconds: d.retryPeriodSeconds }),
    onStartedLeading: (signal) => {
      post({ type: 'started' });
      signal.addEventListener('abort', () => post({ type: 'lost' }), { once: true });
    },
    onNewLeader: (identity) => post({ type: 'leader', identity }),
    onStoppedLeading: () => post({ type: 'stopped' }),
  });
  await elector.run(stop.signal);
  // Keep-alive sockets of the client would hold the thread open; it has nothing left to do.
  port.close();
  process.exit(0);
}

if (parentPort) {
  const port = parentPort;
  main(port, workerData as LeaseThreadData).catch((err: unknown) => {
    process.stderr.write(`leader-election thread failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  });
}
