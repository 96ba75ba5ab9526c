// Lease renewal is never starved by a busy main loop (issue 23): the manager's election runs on its own thread.
// Against a Lease apiserver on 127.0.0.1 that runs on a third thread, the main thread is blocked synchronously for
// longer than the renew deadline, again and again. An elector on the main thread loses the lease (the hazard); the
// election thread keeps renewing it every retry period and never reports a loss.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Worker } from 'node:worker_threads';
import { realClock } from '../shared/clock.js';
import { loadApiServer } from '../shared/kube/kubeconfig.js';
import { LeaderElector } from '../shared/kube/leader-election.js';
import { runElectionThread } from '../shared/kube/leader-election-thread.js';
import { makeRest } from '../shared/kube/rest.js';
import { restLeaseClient } from '../shared/kube/rest-lease-client.js';
import { silentLogger } from '../shared/log.js';
import { startWorker } from '../shared/worker.js';
import type { LeaseThreadData } from './lease-thread.js';

/** Short timings so the test takes seconds: the block (1.5 × renewDeadline) is what matters, not the values. */
const TIMING = { leaseDurationSeconds: 3, renewDeadlineSeconds: 2, retryPeriodSeconds: 0.5 };
const BLOCK_MS = 3000;

/** Blocks this thread's event loop for `ms`, `times` times, letting it turn once in between. */
async function busy(ms: number, times: number): Promise<void> {
  for (let i = 0; i < times; i++) {
    const until = Date.now() + ms;
    while (Date.now() < until) { /* a long synchronous reconcile */ }
    await new Promise((r) => setImmediate(r));
  }
}

interface Write { at: number; holder?: string }

describe('leader election under a busy main loop', { timeout: 60_000 }, () => {
  let server: Worker;
  let dir: string;
  let kubeconfig: string;
  const writes = () => new Promise<Write[]>((resolve) => {
    server.once('message', (m: { writes: Write[] }) => resolve(m.writes));
    server.postMessage('report');
  });

  before(async () => {
    server = startWorker(new URL('./testing/lease-server-thread.ts', import.meta.url));
    const { port } = await new Promise<{ port: number }>((resolve) => server.once('message', resolve));
    dir = mkdtempSync(join(tmpdir(), 'kts-lease-'));
    kubeconfig = join(dir, 'kubeconfig');
    writeFileSync(kubeconfig, JSON.stringify({
      apiVersion: 'v1', kind: 'Config', 'current-context': 'c',
      clusters: [{ name: 'c', cluster: { server: `http://127.0.0.1:${port}` } }],
      users: [{ name: 'u', user: { token: 't' } }], contexts: [{ name: 'c', context: { cluster: 'c', user: 'u' } }],
    }));
  });
  after(async () => {
    server.postMessage('close');
    await server.terminate();
    rmSync(dir, { recursive: true, force: true });
  });

  it('an elector on the main thread loses the lease when the loop is blocked past the renew deadline', async () => {
    const rest = makeRest(loadApiServer({ kubeconfig }, {}), { timeoutMs: 5000 });
    const events: string[] = [];
    const stop = new AbortController();
    const elector = new LeaderElector({
      client: restLeaseClient(rest), namespace: 'ns', name: 'main-thread', identity: 'main', clock: realClock, log: silentLogger(), ...TIMING,
      onStartedLeading: (signal) => { events.push('started'); signal.addEventListener('abort', () => events.push('lost')); },
    });
    const done = elector.run(stop.signal);
    while (!events.includes('started')) await new Promise((r) => setTimeout(r, 20));
    await busy(BLOCK_MS, 2);
    await new Promise((r) => setTimeout(r, 700));
    stop.abort();
    await done;
    assert.deepEqual(events, ['started', 'lost']);
  });

  it('the election thread keeps renewing through 3 blocks of 1.5 × the renew deadline, and releases on stop', async () => {
    const events: string[] = [];
    const stop = new AbortController();
    const workerData: LeaseThreadData = { kubeconfig, env: {}, apiTimeoutMs: 5000, logLevel: 'silent', namespace: 'ns', name: 'thread', identity: 'thread-1', ...TIMING };
    const done = runElectionThread({
      entry: new URL('./lease-thread.ts', import.meta.url), workerData, name: 'thread', log: silentLogger(),
      onStartedLeading: (signal) => { events.push('started'); signal.addEventListener('abort', () => events.push('lost')); },
      onStoppedLeading: () => events.push('stopped'),
    }, stop.signal);
    while (!events.includes('started')) await new Promise((r) => setTimeout(r, 20));
    const from = Date.now();
    await busy(BLOCK_MS, 3);
    const to = Date.now();
    assert.deepEqual(events, ['started'], 'no loss reported during the blocks');
    const renewals = (await writes()).filter((w) => w.holder === 'thread-1' && w.at >= from && w.at <= to).map((w) => w.at);
    const gaps = renewals.slice(1).map((t, i) => t - renewals[i]!);
    assert.ok(renewals.length >= (to - from) / 1000, `renewals while blocked: ${renewals.length} in ${to - from} ms`);
    assert.ok(Math.max(renewals[0]! - from, ...gaps, to - renewals.at(-1)!) < TIMING.renewDeadlineSeconds * 1000, `longest gap between renewals: ${Math.max(...gaps)} ms`);
    stop.abort();
    await done;
    assert.deepEqual(events, ['started', 'lost', 'stopped']);
    const last = (await writes()).at(-1);
    assert.equal(last?.holder, undefined, 'the lease was released on stop');
  });
});
