import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ImageTagStatus, NodeImage } from '../../shared/api/node-image.js';
import { superviseStatus } from './status-supervision.js';

const T0 = Date.parse('2025-01-01T12:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
const owner = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ImagePullJob', namespace: 'default', name: 'j', uid: 'u' };
const ni = (createdAgoS: number, st: ImageTagStatus[] | undefined, o: { version?: number; deadline?: number } = {}): NodeImage => ({
  metadata: { name: 'n1' },
  spec: { images: { nginx: { tags: [{ tag: '1', createdAt: iso(T0 - createdAgoS * 1000), version: o.version ?? 0, ownerReferences: [owner],
    pullPolicy: { ttlSecondsAfterFinished: 300, ...(o.deadline !== undefined ? { activeDeadlineSeconds: o.deadline } : {}) } }] } } },
  status: { desired: 1, succeeded: 0, failed: 0, pulling: st ? 1 : 0, waiting: 2, ...(st ? { imageStatuses: { nginx: { tags: st } } } : {}) },
});

test('no status within 10 minutes: wait; after: Failed "node has not responded for a long time"', () => {
  const early = superviseStatus(ni(60, undefined), T0);
  assert.deepEqual(early, { failures: [], requeueAfterMs: 540_000 });
  const late = superviseStatus(ni(600, undefined), T0);
  assert.equal(late.failures.length, 1);
  assert.deepEqual(late.failures[0], { image: 'nginx', tag: '1', message: 'node has not responded for a long time', owners: [owner] });
  assert.deepEqual(late.status, {
    desired: 1, succeeded: 0, failed: 1, pulling: 0, waiting: 2,
    imageStatuses: { nginx: { tags: [{ tag: '1', phase: 'Failed', completionTime: iso(T0), version: 0, message: 'node has not responded for a long time' }] } },
  });
});

test('a status of an older version counts as no answer', () => {
  const r = superviseStatus(ni(700, [{ tag: '1', phase: 'Succeeded', version: 0, completionTime: iso(T0 - 800_000) }], { version: 1 }), T0);
  assert.equal(r.status?.imageStatuses?.nginx?.tags[0]?.version, 1);
  assert.equal(r.status?.imageStatuses?.nginx?.tags[0]?.phase, 'Failed');
});

test('activeDeadlineSeconds is enforced with 10 minutes of slack, only while unfinished', () => {
  const pulling = [{ tag: '1', phase: 'Pulling', version: 0 }];
  assert.deepEqual(superviseStatus(ni(60, pulling, { deadline: 60 }), T0), { failures: [], requeueAfterMs: 600_000 });
  const over = superviseStatus(ni(661, pulling, { deadline: 60 }), T0);
  assert.equal(over.failures[0]?.message, 'pulling exceeds the activeDeadlineSeconds');
  assert.equal(over.status?.pulling, 0);
  assert.equal(over.status?.failed, 1);
  const done = superviseStatus(ni(5000, [{ tag: '1', phase: 'Succeeded', version: 0, completionTime: iso(T0) }], { deadline: 60 }), T0);
  assert.deepEqual(done, { failures: [] });
});

test('a fresh write prunes statuses of tags no longer in spec', () => {
  const n = ni(700, undefined);
  n.status!.imageStatuses = { busybox: { tags: [{ tag: 'x', phase: 'Succeeded' }] } };
  const r = superviseStatus(n, T0);
  assert.deepEqual(Object.keys(r.status!.imageStatuses!), ['nginx']);
  assert.equal(r.status!.succeeded, 0);
});
