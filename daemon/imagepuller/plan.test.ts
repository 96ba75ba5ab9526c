import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ImageTagStatus, NodeImageSpec, NodeImageStatus } from '../../shared/api/node-image.js';
import { needsFastRequeue, planSync, taskFor, type ObservedPull } from './plan.js';

const NOW = Date.parse('2026-03-01T10:00:00Z');
const spec = (tags: Array<{ tag: string; version?: number; pullPolicy?: object }>, name = 'nginx'): NodeImageSpec => ({ images: { [name]: { tags } } });
const pulling = (name: string, tag: string, extra: Partial<ImageTagStatus> = {}, policy: object = {}, version = 0): ObservedPull => ({
  task: taskFor(name, { tag, version, pullPolicy: policy }),
  status: { tag, phase: 'Pulling', version, startTime: '2026-03-01T09:59:00Z', ...extra },
});

describe('planSync', () => {
  test('new tags are started and reported Waiting; counters come from phases', () => {
    const p = planSync({ spec: spec([{ tag: 'b' }, { tag: 'a' }]), status: undefined, pulls: [], nowMs: NOW });
    assert.deepEqual(p.start.map((t) => t.tag), ['b', 'a']);
    assert.deepEqual(p.status.imageStatuses?.nginx.tags.map((t) => [t.tag, t.phase]), [['a', 'Waiting'], ['b', 'Waiting']], 'sorted by tag');
    assert.deepEqual([p.status.desired, p.status.waiting], [2, 2]);
  });

  test('task parameters default to 600 s and backoffLimit 3, and a negative backoffLimit becomes 3', () => {
    assert.deepEqual([taskFor('x', { tag: 't' }).timeoutSeconds, taskFor('x', { tag: 't' }).backoffLimit], [600, 3]);
    assert.equal(taskFor('x', { tag: 't', pullPolicy: { backoffLimit: -1 } }).backoffLimit, 3);
    assert.equal(taskFor('x', { tag: 't', pullPolicy: { backoffLimit: 0 } }).backoffLimit, 0);
  });

  test('a running pull keeps its status and is not restarted', () => {
    const p = planSync({ spec: spec([{ tag: 'a' }]), status: undefined, pulls: [pulling('nginx', 'a')], nowMs: NOW });
    assert.deepEqual([p.start, p.cancel], [[], []]);
    assert.equal(p.status.pulling, 1);
  });

  test('pulls of removed tags and removed images are cancelled and disappear from the status', () => {
    const p = planSync({ spec: spec([{ tag: 'a' }]), status: undefined, pulls: [pulling('nginx', 'a'), pulling('nginx', 'gone'), pulling('redis', '7')], nowMs: NOW });
    assert.deepEqual(p.cancel, [{ name: 'nginx', tag: 'gone' }, { name: 'redis', tag: '7' }]);
    assert.deepEqual(Object.keys(p.status.imageStatuses ?? {}), ['nginx']);
  });

  test('a version bump or a changed pull policy cancels and restarts the pull', () => {
    const bumped = planSync({ spec: spec([{ tag: 'a', version: 1 }]), status: undefined, pulls: [pulling('nginx', 'a')], nowMs: NOW });
    assert.deepEqual([bumped.cancel.length, bumped.start.map((t) => t.version)], [1, [1]]);
    const policy = planSync({ spec: spec([{ tag: 'a', pullPolicy: { timeoutSeconds: 30 } }]), status: undefined, pulls: [pulling('nginx', 'a')], nowMs: NOW });
    assert.deepEqual([policy.cancel.length, policy.start.map((t) => t.timeoutSeconds)], [1, [30]]);
  });

  test('a written finished status of the same version is adopted; a different version is pulled', () => {
    const done: ImageTagStatus = { tag: 'a', phase: 'Failed', version: 1, completionTime: '2026-03-01T09:00:00Z', message: 'x' };
    const status: NodeImageStatus = { desired: 1, succeeded: 0, failed: 1, pulling: 0, waiting: 0, imageStatuses: { nginx: { tags: [done] } } };
    const same = planSync({ spec: spec([{ tag: 'a', version: 1 }]), status, pulls: [], nowMs: NOW });
    assert.deepEqual([same.start, same.status.imageStatuses?.nginx.tags], [[], [done]]);
    assert.equal(planSync({ spec: spec([{ tag: 'a', version: 2 }]), status, pulls: [], nowMs: NOW }).start.length, 1);
  });

  test('a running pull past activeDeadlineSeconds since its startTime is expired; one within it is not', () => {
    const past = planSync({ spec: spec([{ tag: 'a', pullPolicy: { activeDeadlineSeconds: 60 } }]), status: undefined, pulls: [pulling('nginx', 'a', {}, { activeDeadlineSeconds: 60 })], nowMs: NOW });
    assert.deepEqual(past.expired, [{ name: 'nginx', tag: 'a' }]);
    const within = planSync({ spec: spec([{ tag: 'a', pullPolicy: { activeDeadlineSeconds: 61 } }]), status: undefined, pulls: [pulling('nginx', 'a', {}, { activeDeadlineSeconds: 61 })], nowMs: NOW });
    assert.deepEqual(within.expired, []);
  });

  test('an empty spec reports zero counters and omits imageStatuses', () => {
    assert.deepEqual(planSync({ spec: {}, status: undefined, pulls: [], nowMs: NOW }).status, { desired: 0, succeeded: 0, failed: 0, pulling: 0, waiting: 0 });
  });

  test('requeue is fast while a tag is unfinished or reported at another version', () => {
    const s = (version: number, phase = 'Succeeded'): NodeImageStatus => ({ desired: 1, succeeded: phase === 'Succeeded' ? 1 : 0, failed: 0, pulling: phase === 'Pulling' ? 1 : 0, waiting: 0, imageStatuses: { nginx: { tags: [{ tag: 'a', phase, version }] } } });
    assert.equal(needsFastRequeue(spec([{ tag: 'a', version: 1 }]), s(1)), false);
    assert.equal(needsFastRequeue(spec([{ tag: 'a', version: 1 }]), s(0)), true);
    assert.equal(needsFastRequeue(spec([{ tag: 'a', version: 1 }]), s(1, 'Pulling')), true);
  });
});
