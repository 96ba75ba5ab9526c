import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ContainerRecreateRequest } from '../../shared/api/container-recreate-request.js';
import { ResourceVersionExpectations } from './expectations.js';
import { parseRfc3339, pickRequest, planPreamble, podMatches, type Preamble } from './sync-plan.js';
import { crr, POD_UID, T0 } from './testing.js';

const names = (cs: ContainerRecreateRequest[]) => cs.map((c) => c.metadata?.name);
const always = () => true;

test('pick: phase weight first (Recreating, Pending, ""), then age; later "" ones are set to Pending', () => {
  const list = [
    crr({ name: 'new-empty', createdAt: T0 + 3_000 }),
    crr({ name: 'old-empty', createdAt: T0 }),
    crr({ name: 'pending', createdAt: T0 + 5_000, status: { phase: 'Pending' } }),
    crr({ name: 'recreating', createdAt: T0 + 9_000, status: { phase: 'Recreating' } }),
  ];
  const p = pickRequest(list, always);
  assert.equal(p.picked?.metadata?.name, 'recreating');
  assert.deepEqual(names(p.toPending), ['old-empty', 'new-empty']);
  assert.equal(p.stale, false);
});

test('pick: completed and deleting CRRs are skipped', () => {
  const p = pickRequest([
    crr({ name: 'done', status: { phase: 'Completed', completionTime: '2026-03-01T10:00:05Z' } }),
    { ...crr({ name: 'deleting' }), metadata: { ...crr({ name: 'deleting' }).metadata, deletionTimestamp: '2026-03-01T10:00:05Z' as never } },
    crr({ name: 'live', createdAt: T0 + 1_000 }),
  ], always);
  assert.equal(p.picked?.metadata?.name, 'live');
  assert.deepEqual(p.toPending, []);
});

test('pick: a CRR whose cache predates our write ends the scan', () => {
  const p = pickRequest([crr({ name: 'a', createdAt: T0 }), crr({ name: 'b', createdAt: T0 + 1_000 })], (c) => c.metadata?.name !== 'a');
  assert.equal(p.picked, undefined);
  assert.equal(p.stale, true);
});

interface PreCase {
  name: string;
  crr: ContainerRecreateRequest;
  podPresent?: boolean;
  now?: number;
  runtimes?: string[];
  want: Preamble;
}

const recreating = { phase: 'Recreating' } as const;
const unready = (at: string) => ({ 'crr.apps.kruise.io/unready-acquired': at });

const preCases: PreCase[] = [
  { name: 'a gone pod completes the CRR with "pod has gone"', crr: crr(), podPresent: false, want: { type: 'complete', message: 'pod has gone' } },
  { name: 'a fresh CRR is first set to Recreating', crr: crr(), want: { type: 'set-phase', phase: 'Recreating' } },
  { name: 'a Pending CRR picked later is set to Recreating', crr: crr({ status: { phase: 'Pending' } }), want: { type: 'set-phase', phase: 'Recreating' } },
  { name: 'Recreating without unready grace goes to manage', crr: crr({ status: recreating }), want: { type: 'manage', runtime: 'containerd' } },
  {
    name: 'unreadyGracePeriodSeconds waits for the manager stamp',
    crr: crr({ status: recreating, strategy: { unreadyGracePeriodSeconds: 5 } }), want: { type: 'wait-unready' },
  },
  {
    name: 'unreadyGracePeriodSeconds 0 still waits for the stamp (the field is set)',
    crr: crr({ status: recreating, strategy: { unreadyGracePeriodSeconds: 0 } }), want: { type: 'wait-unready' },
  },
  {
    name: 'within the grace period the sync is requeued for the remainder plus 100 ms',
    crr: crr({ status: recreating, strategy: { unreadyGracePeriodSeconds: 5 }, annotations: unready('2026-03-01T10:00:02Z') }),
    now: T0 + 4_000, want: { type: 'requeue', afterMs: 3_100 },
  },
  {
    name: 'after the grace period it manages',
    crr: crr({ status: recreating, strategy: { unreadyGracePeriodSeconds: 5 }, annotations: unready('2026-03-01T10:00:02Z') }),
    now: T0 + 7_000, want: { type: 'manage', runtime: 'containerd' },
  },
  {
    name: 'an unparsable stamp completes the CRR',
    crr: crr({ status: recreating, strategy: { unreadyGracePeriodSeconds: 5 }, annotations: unready('yesterday') }),
    want: { type: 'complete', message: 'failed to parse unready time yesterday: not an RFC3339 time' },
  },
  {
    name: 'an unknown runtime completes the CRR',
    crr: crr({ status: recreating, containers: [{ name: 'app', id: 'docker://abc' }] }),
    want: { type: 'complete', message: 'failed to find runtime service: not found runtime service for docker in daemon' },
  },
  {
    name: 'a containerID without a runtime completes the CRR',
    crr: crr({ status: recreating, containers: [{ name: 'app', id: 'abc' }] }),
    want: { type: 'complete', message: 'failed to find runtime service: failed to parse containerID "abc" of container app' },
  },
  {
    name: 'containers on two runtimes complete the CRR',
    crr: crr({ status: recreating, containers: [{ name: 'a', id: 'containerd://1' }, { name: 'b', id: 'cri-o://2' }] }),
    runtimes: ['containerd', 'cri-o'],
    want: { type: 'complete', message: 'failed to find runtime service: containers run on different runtimes containerd and cri-o' },
  },
];

for (const tc of preCases) {
  test(`preamble: ${tc.name}`, () => {
    assert.deepEqual(planPreamble({ crr: tc.crr, podPresent: tc.podPresent ?? true, runtimes: new Set(tc.runtimes ?? ['containerd']), nowMs: tc.now ?? T0 }), tc.want);
  });
}

test('podMatches: present, other UID, deleting, missing', () => {
  const c = crr();
  assert.equal(podMatches(c, { metadata: { uid: POD_UID } }), true);
  assert.equal(podMatches(c, { metadata: { uid: 'other' } }), false);
  assert.equal(podMatches(c, { metadata: { uid: POD_UID, deletionTimestamp: '2026-03-01T10:00:00Z' } }), false);
  assert.equal(podMatches(c, undefined), false);
});

test('parseRfc3339 accepts Go RFC3339 shapes and rejects others', () => {
  assert.equal(parseRfc3339('2026-03-01T10:00:02Z'), T0 + 2_000);
  assert.equal(parseRfc3339('2026-03-01T12:00:02+02:00'), T0 + 2_000);
  assert.equal(parseRfc3339('2026-03-01T10:00:02.5Z'), T0 + 2_500);
  for (const bad of ['2026-03-01', '2026-03-01 10:00:02Z', '2026-13-01T10:00:02Z', '']) assert.equal(parseRfc3339(bad), undefined, bad);
});

test('expectations: a stale cache is reported until it catches up, and dropped after it does', () => {
  let now = 0;
  const e = new ResourceVersionExpectations(() => now);
  e.expect('default/a', '20');
  now = 3_000;
  assert.deepEqual(e.check('default/a', '19'), { satisfied: false, waitedMs: 3_000 });
  assert.deepEqual(e.check('default/a', '20'), { satisfied: true });
  assert.equal(e.size, 0);
  assert.deepEqual(e.check('default/a', '5'), { satisfied: true });
});

test('expectations: a later write raises the expectation but keeps when waiting started', () => {
  let now = 0;
  const e = new ResourceVersionExpectations(() => now);
  e.expect('k', '20');
  now = 1_000;
  e.expect('k', '25');
  e.expect('k', '22');
  now = 4_000;
  assert.deepEqual(e.check('k', '24'), { satisfied: false, waitedMs: 4_000 });
  e.expect('k', undefined);
  assert.deepEqual(e.check('k', 'opaque'), { satisfied: true });
});
