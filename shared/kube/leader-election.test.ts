import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pino } from 'pino';
import { FakeClock } from '../clock.js';
import { Registry } from 'prom-client';
import { LeaderElector, LeaseConflictError, type LeaderElectionOptions, type LeaseClient, type LeaseRecord } from './leader-election.js';
import { leaderMetrics } from './leader-metrics.js';

/** An API server holding Leases, with the resourceVersion checks that make leader election safe. */
class FakeLeaseServer {
  private readonly leases = new Map<string, LeaseRecord>();
  private rv = 0;

  get(namespace: string, name: string): LeaseRecord | undefined {
    const l = this.leases.get(`${namespace}/${name}`);
    return l && { ...l };
  }

  create(lease: LeaseRecord): LeaseRecord {
    const k = `${lease.namespace}/${lease.name}`;
    if (this.leases.has(k)) throw new LeaseConflictError(`leases "${lease.name}" already exists`);
    return this.store(k, lease);
  }

  replace(lease: LeaseRecord): LeaseRecord {
    const k = `${lease.namespace}/${lease.name}`;
    const cur = this.leases.get(k);
    if (!cur || cur.resourceVersion !== lease.resourceVersion) throw new LeaseConflictError('the object has been modified');
    return this.store(k, lease);
  }

  private store(k: string, lease: LeaseRecord): LeaseRecord {
    const saved = { ...lease, resourceVersion: String(++this.rv) };
    this.leases.set(k, saved);
    return { ...saved };
  }
}

type Mode = 'up' | 'fail' | 'hang';

/** One candidate's connection to the server; `mode` simulates a partition ('fail') or a stuck connection ('hang'). */
function connection(server: FakeLeaseServer) {
  const conn = { mode: 'up' as Mode, client: undefined as unknown as LeaseClient };
  const call = <T>(fn: () => T): Promise<T> => {
    if (conn.mode === 'fail') return Promise.reject(new Error('connection refused'));
    if (conn.mode === 'hang') return new Promise<T>(() => {});
    try { return Promise.resolve(fn()); } catch (e) { return Promise.reject(e); }
  };
  conn.client = {
    get: (ns, name) => call(() => server.get(ns, name)),
    create: (l) => call(() => server.create(l)),
    replace: (l) => call(() => server.replace(l)),
  };
  return conn;
}

interface Event { at: number; who: string; what: 'started' | 'stopped' }

function candidate(identity: string, server: FakeLeaseServer, clock: FakeClock, events: Event[], extra: Partial<LeaderElectionOptions> = {}) {
  const conn = connection(server);
  const ac = new AbortController();
  const elector = new LeaderElector({
    client: conn.client, namespace: 'kruise-system', name: 'kruise-ts-manager', identity, clock, random: () => 0,
    log: pino({ level: 'silent' }),
    // Leadership ends for the controllers when the leading signal aborts (onStoppedLeading may come later, after the
    // bounded release), so that is the moment the no-overlap check uses.
    onStartedLeading: (signal) => {
      events.push({ at: clock.now(), who: identity, what: 'started' });
      signal.addEventListener('abort', () => events.push({ at: clock.now(), who: identity, what: 'stopped' }));
    },
    ...extra,
  });
  const done = elector.run(ac.signal);
  return { elector, conn, stop: () => ac.abort(), done };
}

/** Never two leaders at once according to the callbacks. */
function assertNoOverlap(events: Event[]) {
  let leaders = 0;
  for (const e of [...events].sort((a, b) => a.at - b.at || (a.what === 'stopped' ? -1 : 1))) {
    leaders += e.what === 'started' ? 1 : -1;
    assert.ok(leaders <= 1, `two leaders at ${e.at}: ${JSON.stringify(events)}`);
  }
}

function setup() {
  const clock = new FakeClock(0);
  const server = new FakeLeaseServer();
  const events: Event[] = [];
  const a = candidate('a', server, clock, events);
  const b = candidate('b', server, clock, events);
  return { clock, server, events, a, b };
}

describe('LeaderElector', () => {
  it('of two candidates exactly one leads, and keeps leading while it renews', async () => {
    const { clock, server, events, a, b } = setup();
    await clock.advance(60_000);
    assert.deepEqual([a.elector.isLeader(), b.elector.isLeader()], [true, false]);
    assert.deepEqual(events, [{ at: 0, who: 'a', what: 'started' }]);
    const lease = server.get('kruise-system', 'kruise-ts-manager')!;
    assert.equal(lease.holderIdentity, 'a');
    assert.equal(lease.leaseTransitions, 0, 'renewals are not transitions');
    assert.equal(lease.acquireTime, 0, 'renewals keep the acquire time');
    assert.equal(lease.renewTime, 60_000);
    assert.equal(b.elector.leader(), 'a');
    a.stop(); b.stop();
    await clock.advance(10_000);
    await Promise.all([a.done, b.done]);
  });

  for (const mode of ['fail', 'hang'] as const) {
    it(`when the leader's API calls ${mode === 'fail' ? 'fail' : 'hang'}, it steps down after renewDeadline and the other takes over after leaseDuration`, async () => {
      const { clock, server, events, a, b } = setup();
      await clock.advance(6_000);
      const lastRenew = server.get('kruise-system', 'kruise-ts-manager')!.renewTime!;
      assert.equal(lastRenew, 6_000);
      a.conn.mode = mode;
      await clock.advance(lastRenew + 10_000 - clock.now());
      assert.equal(a.elector.isLeader(), false, 'a gives up once renewDeadline (10 s) passes without a renewal');
      // b saw the last change at 6 s (its poll at 6 s happens after a's renewal), so it may take over at 21 s.
      await clock.advance(lastRenew + 14_000 - clock.now());
      assert.equal(b.elector.isLeader(), false, 'b waits for the lease to expire on its own clock');
      await clock.advance(5_000);
      assert.equal(b.elector.isLeader(), true);
      const lease = server.get('kruise-system', 'kruise-ts-manager')!;
      assert.deepEqual([lease.holderIdentity, lease.leaseTransitions], ['b', 1]);
      assertNoOverlap(events);
      b.stop();
      await clock.advance(10_000);
      await Promise.all([a.done, b.done]);
    });
  }

  it('a leader that stops releases the lease and the other takes over at its next retry, not after leaseDuration', async () => {
    const { clock, server, events, a, b } = setup();
    await clock.advance(5_000);
    a.stop();
    await a.done;
    const released = server.get('kruise-system', 'kruise-ts-manager')!;
    assert.equal(released.holderIdentity, undefined);
    assert.equal(released.leaseDurationSeconds, 1);
    const releasedAt = clock.now();
    await clock.advance(2_000);
    assert.equal(b.elector.isLeader(), true);
    const started = events.find((e) => e.who === 'b' && e.what === 'started')!;
    assert.ok(started.at - releasedAt <= 2_000, `b started ${started.at - releasedAt} ms after the release`);
    assert.equal(server.get('kruise-system', 'kruise-ts-manager')!.leaseTransitions, 1);
    assertNoOverlap(events);
    b.stop();
    await clock.advance(10_000);
    await b.done;
  });

  it('exports leader_election_master_status{name} and kruise_manager_is_leader: 0 standing by, 1 leading, 0 after losing', async () => {
    const clock = new FakeClock(0);
    const server = new FakeLeaseServer();
    const registries = { a: new Registry(), b: new Registry() };
    const a = candidate('a', server, clock, [], { metrics: leaderMetrics(registries.a) });
    const b = candidate('b', server, clock, [], { metrics: leaderMetrics(registries.b) });
    const read = async (r: Registry) => {
      const status = (await r.getSingleMetric('leader_election_master_status')!.get()).values;
      const mine = (await r.getSingleMetric('kruise_manager_is_leader')!.get()).values;
      return [status.map((v) => `${v.labels.name}=${v.value}`).join(), mine[0]?.value];
    };
    await clock.advance(1_000);
    assert.deepEqual([await read(registries.a), await read(registries.b)], [['kruise-ts-manager=1', 1], ['kruise-ts-manager=0', 0]]);
    a.conn.mode = 'fail';
    await clock.advance(30_000);
    assert.deepEqual([await read(registries.a), await read(registries.b)], [['kruise-ts-manager=0', 0], ['kruise-ts-manager=1', 1]]);
    assert.match(await registries.b.metrics(), /# HELP leader_election_master_status Gauge of if the reporting system is master of the relevant lease, 0 indicates backup, 1 indicates master/);
    b.stop();
    await clock.advance(10_000);
    await Promise.all([a.done, b.done]);
  });

  it('aborts the leading signal when leadership is lost, then calls onStoppedLeading', async () => {
    const clock = new FakeClock(0);
    const server = new FakeLeaseServer();
    let leadingSignal: AbortSignal | undefined;
    let stoppedAt: number | undefined;
    const a = candidate('a', server, clock, [], {
      onStartedLeading: (s) => { leadingSignal = s; },
      onStoppedLeading: () => { stoppedAt = clock.now(); },
    });
    await clock.advance(1_000);
    assert.equal(leadingSignal?.aborted, false);
    a.conn.mode = 'fail';
    await clock.advance(12_000);
    assert.equal(leadingSignal?.aborted, true);
    await a.done;
    assert.equal(stoppedAt, 10_000, 'last renewal at 0 s + renewDeadline 10 s');
  });

  it('reports each newly observed leader once', async () => {
    const clock = new FakeClock(0);
    const server = new FakeLeaseServer();
    const seenByB: string[] = [];
    const a = candidate('a', server, clock, []);
    const b = candidate('b', server, clock, [], { onNewLeader: (id) => seenByB.push(id) });
    await clock.advance(10_000);
    a.stop();
    await clock.advance(10_000);
    assert.deepEqual(seenByB, ['a', 'b']);
    b.stop();
    await clock.advance(10_000);
    await Promise.all([a.done, b.done]);
  });

  it('a candidate stopped before it ever leads returns without callbacks', async () => {
    const { clock, events, a, b } = setup();
    await clock.advance(1_000);
    b.stop();
    await b.done;
    assert.deepEqual(events.map((e) => `${e.who} ${e.what}`), ['a started']);
    a.stop();
    await clock.advance(1_000);
    await a.done;
  });

  const invalid = [
    { name: 'leaseDuration must exceed renewDeadline', opts: { leaseDurationSeconds: 10, renewDeadlineSeconds: 10 }, err: /leaseDurationSeconds/ },
    { name: 'renewDeadline must exceed 1.2 × retryPeriod', opts: { renewDeadlineSeconds: 2, retryPeriodSeconds: 2 }, err: /renewDeadlineSeconds/ },
    { name: 'identity must not be empty', opts: { identity: '' }, err: /identity/ },
  ];
  for (const tc of invalid) {
    it(`rejects bad options: ${tc.name}`, () => {
      const base: LeaderElectionOptions = {
        client: connection(new FakeLeaseServer()).client, namespace: 'ns', name: 'l', identity: 'x', clock: new FakeClock(),
        log: pino({ level: 'silent' }), onStartedLeading: () => {},
      };
      assert.throws(() => new LeaderElector({ ...base, ...tc.opts }), tc.err);
    });
  }
});
