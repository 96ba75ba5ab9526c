import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CoreV1Event, V1ObjectReference } from '@kubernetes/client-node';
import { EventRecorder, type EventsApi } from './events.js';

const nodeImage: V1ObjectReference = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'NodeImage', name: 'node-a', uid: 'u1' };
const job: V1ObjectReference = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ImagePullJob', namespace: 'team', name: 'warm', uid: 'u2' };

function fakeApi() {
  const created: Array<{ namespace: string; event: CoreV1Event }> = [];
  const patches: Array<{ namespace: string; name: string; patch: any }> = [];
  const failures: Array<{ code?: number; message: string }> = [];
  const api: EventsApi = {
    async create(namespace, event) {
      const f = failures.shift();
      if (f) throw Object.assign(new Error(f.message), { code: f.code });
      created.push({ namespace, event });
    },
    async patch(namespace, name, patch) {
      const f = failures.shift();
      if (f) throw Object.assign(new Error(f.message), { code: f.code });
      patches.push({ namespace, name, patch });
    },
  };
  return { api, created, patches, failures };
}

function setup() {
  const fake = fakeApi();
  const warnings: object[] = [];
  let now = Date.parse('2026-03-01T10:00:00Z');
  const rec = new EventRecorder({ api: fake.api, component: 'kruise-daemon-imagepuller', host: 'node-a', now: () => now, log: { warn: (o) => warnings.push(o) } });
  return { ...fake, rec, warnings, tick: (ms: number) => { now += ms; } };
}

test('an event about a cluster-scoped object goes to "default", named <object>.<hex nanos>, with source and count 1', async () => {
  const { rec, created } = setup();
  rec.record(nodeImage, 'Normal', 'PullImageSucceed', 'Image nginx:1.25, ecalpsedTime 1s');
  await rec.flush();
  assert.equal(created.length, 1);
  const { namespace, event } = created[0];
  assert.equal(namespace, 'default');
  assert.match(event.metadata!.name!, /^node-a\.[0-9a-f]+$/);
  assert.equal(event.metadata!.namespace, 'default');
  assert.deepEqual(event.involvedObject, nodeImage);
  assert.deepEqual([event.type, event.reason, event.message, event.count], ['Normal', 'PullImageSucceed', 'Image nginx:1.25, ecalpsedTime 1s', 1]);
  assert.deepEqual(event.source, { component: 'kruise-daemon-imagepuller', host: 'node-a' });
  assert.equal(event.firstTimestamp!.toISOString(), '2026-03-01T10:00:00.000Z');
});

test('a namespaced object gets its event in its own namespace', async () => {
  const { rec, created } = setup();
  rec.record(job, 'Warning', 'PullImageFailed', 'Image nginx:1.25 boom');
  await rec.flush();
  assert.equal(created[0].namespace, 'team');
});

test('an identical event bumps count and lastTimestamp on the first one; a different message is a new event', async () => {
  const { rec, created, patches, tick } = setup();
  rec.record(nodeImage, 'Warning', 'PullImageFailed', 'm1');
  tick(5_000);
  rec.record(nodeImage, 'Warning', 'PullImageFailed', 'm1');
  rec.record(nodeImage, 'Warning', 'PullImageFailed', 'm1');
  rec.record(nodeImage, 'Warning', 'PullImageFailed', 'm2');
  await rec.flush();
  assert.equal(created.length, 2);
  assert.deepEqual(patches.map((p) => [p.name, p.patch.count]), [[created[0].event.metadata!.name, 2], [created[0].event.metadata!.name, 3]]);
  assert.equal(patches[0].patch.lastTimestamp, '2026-03-01T10:00:05.000Z');
});

test('an expired aggregated event (404 on patch) is created afresh', async () => {
  const { rec, created, failures } = setup();
  rec.record(nodeImage, 'Normal', 'R', 'same');
  await rec.flush();
  failures.push({ code: 404, message: 'not found' });
  rec.record(nodeImage, 'Normal', 'R', 'same');
  await rec.flush();
  assert.equal(created.length, 2);
  assert.equal(created[1].event.count, 1);
  assert.notEqual(created[1].event.metadata!.name, created[0].event.metadata!.name);
});

test('a failed write is logged without the message and does not stop later events', async () => {
  const { rec, created, failures, warnings } = setup();
  failures.push({ code: 403, message: 'forbidden' });
  rec.record(nodeImage, 'Warning', 'R', 'secret-looking text');
  rec.record(nodeImage, 'Normal', 'R2', 'ok');
  await rec.flush();
  assert.equal(created.length, 1);
  assert.equal(warnings.length, 1);
  assert.ok(!JSON.stringify(warnings).includes('secret-looking text'));
});
