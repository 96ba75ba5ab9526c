import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ImagePullJob, ImagePullJobSpec, ImagePullJobStatus } from '../../shared/api/image-pull-job.js';
import type { ImageTagStatus, NodeImage } from '../../shared/api/node-image.js';
import { computeStatus, formatPercent, parallelismOf, type StatusInput } from './job-status.js';

const T0 = Date.parse('2025-01-01T12:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
const mine = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ImagePullJob', namespace: 'ns', name: 'j', uid: 'u-j' };
const theirs = { ...mine, name: 'k', uid: 'u-k' };
const secret = { namespace: 'kruise-daemon-config', name: 'reg-abcde' };

/** A NodeImage: 'none' = no tag; else owned by `owner` with an optional status phase (version mismatch with 'stale'). */
function ni(name: string, state: 'none' | { owner?: typeof mine; phase?: string; stale?: boolean; secrets?: boolean; driftFlag?: boolean }): NodeImage {
  if (state === 'none') return { metadata: { name }, spec: {} };
  const st: ImageTagStatus[] = state.phase ? [{ tag: '1.25', phase: state.phase, version: state.stale ? 0 : 1 }] : [];
  return {
    metadata: { name },
    spec: { images: { nginx: { tags: [{ tag: '1.25', version: 1, ownerReferences: [state.owner ?? mine], ...(state.driftFlag ? { imagePullPolicy: 'drift' } : {}) }],
      ...(state.secrets === false ? {} : { pullSecrets: [secret] }) } } },
    status: { desired: 1, succeeded: 0, failed: 0, pulling: 0, waiting: 0, ...(st.length ? { imageStatuses: { nginx: { tags: st } } } : {}) },
  };
}
const job = (spec: Partial<ImagePullJobSpec> = {}, status?: Partial<ImagePullJobStatus>): ImagePullJob => ({
  metadata: { name: 'j', namespace: 'ns', uid: 'u-j' },
  spec: { image: 'nginx:1.25', completionPolicy: { type: 'Always' }, ...spec },
  ...(status ? { status: { desired: 0, active: 0, succeeded: 0, failed: 0, ...status } } : {}),
});
const input = (j: ImagePullJob, targets: NodeImage[], now = T0): StatusInput => ({
  job: j, image: { name: 'nginx', tag: '1.25' }, targets, secrets: [secret], now, nowTime: iso(now),
  drifted: (t) => t.imagePullPolicy === 'drift',
});

test('buckets: not synced, pulling, succeeded, failed', () => {
  const r = computeStatus(input(job(), [
    ni('n5', 'none'), ni('n4', { owner: theirs, phase: 'Succeeded' }), ni('n1', { phase: 'Succeeded' }), ni('n2', { phase: 'Failed' }),
    ni('n3', { phase: 'Pulling' }), ni('n6', {}), ni('n7', { phase: 'Succeeded', stale: true }), ni('n0', { phase: 'Waiting' }),
  ]));
  assert.deepEqual(r.notSynced, ['n4', 'n5'], 'a tag owned by another job does not count, names sorted');
  assert.deepEqual(r.status, {
    startTime: iso(T0), desired: 8, active: 4, succeeded: 1, failed: 1, failedNodes: ['n2'], message: 'job is running, progress 25.0%',
  });
  assert.deepEqual(r.needsUpdate, []);
});

test('completion: all finished, zero targets, never for Never', () => {
  const done = computeStatus(input(job({}, { startTime: iso(T0 - 5000) }), [ni('a', { phase: 'Succeeded' }), ni('b', { phase: 'Failed' })]));
  assert.deepEqual(done.status, { startTime: iso(T0 - 5000), completionTime: iso(T0), desired: 2, active: 0, succeeded: 1, failed: 1, failedNodes: ['b'], message: 'job has completed' });
  assert.equal(computeStatus(input(job(), [])).status.message, 'job has completed', 'a job matching no node completes at once');
  const never = computeStatus(input(job({ completionPolicy: { type: 'Never' } }), [ni('a', { phase: 'Succeeded' })]));
  assert.equal(never.status.completionTime, undefined);
  assert.equal(never.status.message, 'job is running, progress 100.0%');
  assert.equal(computeStatus(input(job({ completionPolicy: { type: 'Never' } }), [])).status.message, 'job is running, no progress');
});

test('activeDeadlineSeconds: everything unfinished fails at the deadline', () => {
  const j = job({ completionPolicy: { type: 'Always', activeDeadlineSeconds: 60 } }, { startTime: iso(T0 - 60_000) });
  const r = computeStatus(input(j, [ni('a', { phase: 'Succeeded' }), ni('b', { phase: 'Pulling' }), ni('c', 'none'), ni('d', { phase: 'Failed' })]));
  assert.deepEqual(r.status, {
    startTime: iso(T0 - 60_000), completionTime: iso(T0), desired: 4, active: 0, succeeded: 1, failed: 3, failedNodes: ['b', 'c', 'd'],
    message: 'job exceeds activeDeadlineSeconds',
  });
  assert.deepEqual(r.notSynced, [], 'nothing more is synced');
  const before = computeStatus(input(j, [ni('b', { phase: 'Pulling' })], T0 - 1));
  assert.equal(before.status.completionTime, undefined, 'one ms before the deadline the job still runs');
});

test('owned tags missing a secret or drifted from the job need an update but still count', () => {
  const r = computeStatus(input(job(), [ni('a', { phase: 'Pulling', secrets: false }), ni('b', { phase: 'Succeeded', driftFlag: true }), ni('c', { phase: 'Succeeded' })]));
  assert.deepEqual(r.needsUpdate, ['a', 'b']);
  assert.equal(r.status.active, 1);
  assert.equal(r.status.succeeded, 2);
});

test('formatPercent is Go %.1f (ties to even on exact binary values)', () => {
  const cases: [number, string][] = [[0, '0.0'], [25, '25.0'], [100 / 3, '33.3'], [0.25, '0.2'], [0.75, '0.8'], [12.25, '12.2'], [0.05, '0.1'], [66.66666, '66.7'], [100, '100.0'], [12.5, '12.5'], [22.5, '22.5'], [87.5, '87.5']];
  for (const [v, want] of cases) assert.equal(formatPercent(v), want, String(v));
});

test('parallelism is IntValue with default 1', () => {
  const cases: [ImagePullJobSpec['parallelism'], number][] = [[undefined, 1], [0, 0], [5, 5], ['7', 7], ['x', 0], ['5abc', 0]];
  for (const [p, want] of cases) assert.equal(parallelismOf(job(p === undefined ? {} : { parallelism: p })), want, String(p));
});

test('parallelism (kruise#2212): a node whose image status lists only sibling tags counts as pulling, and room is parallelism − active', () => {
  // An ImageListPullJob's children pull nginx:1.24 and nginx:1.25 on the same nodes: the image has a status entry,
  // but not for this job's tag yet. v1.8.4 counted such nodes nowhere and released more nodes than parallelism.
  const sibling = (name: string): NodeImage => {
    const n = ni(name, {});
    n.status = { desired: 2, succeeded: 1, failed: 0, pulling: 1, waiting: 0, imageStatuses: { nginx: { tags: [{ tag: '1.24', phase: 'Succeeded', version: 1 }] } } };
    return n;
  };
  const r = computeStatus(input(job({ parallelism: 3 }), [sibling('n1'), sibling('n2'), ni('n3', 'none'), ni('n4', 'none'), ni('n5', 'none')]));
  assert.deepEqual([r.status.active, r.status.succeeded, r.status.failed], [2, 0, 0]);
  assert.equal(Math.max(0, parallelismOf(job({ parallelism: 3 })) - r.status.active), 1, 'one more node, not three');
  assert.deepEqual(r.notSynced, ['n3', 'n4', 'n5']);
});

test('secrets for already-owned tags (kruise#2483): the node still counts by its tag state and is queued for the secret write', () => {
  const r = computeStatus(input(job(), [ni('n1', { phase: 'Succeeded', secrets: false }), ni('n2', { phase: 'Pulling', secrets: false })]));
  assert.deepEqual([r.status.succeeded, r.status.active], [1, 1]);
  assert.deepEqual(r.needsUpdate, ['n1', 'n2']);
  assert.deepEqual(r.notSynced, []);
});
