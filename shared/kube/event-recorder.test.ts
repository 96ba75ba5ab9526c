import assert from 'node:assert/strict';
import { test } from 'node:test';
import { silentLogger } from '../log.js';
import { buildEvent, EVENT_QUEUE_LIMIT, EVENT_WRITES_IN_FLIGHT, eventRecorder } from './event-recorder.js';
import type { KubeRest } from './rest.js';

const nodeImage = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'NodeImage', metadata: { name: 'node-a', uid: 'u1' } };
const now = new Date('2026-03-01T10:00:00.123Z');

test('an event about a cluster-scoped object goes to "default", named <object>.<16 hex>, with whole-second times', () => {
  const ev = buildEvent(nodeImage, 'Normal', 'PullImageSucceed', 'Image nginx:1.25, ecalpsedTime 1s', 'kruise-daemon-imagepuller', now);
  assert.equal(ev.metadata?.namespace, 'default');
  assert.match(ev.metadata?.name ?? '', /^node-a\.[0-9a-f]{16}$/);
  assert.deepEqual(ev.involvedObject, { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'NodeImage', name: 'node-a', namespace: undefined, uid: 'u1', resourceVersion: undefined });
  assert.deepEqual([ev.type, ev.reason, ev.count, ev.firstTimestamp], ['Normal', 'PullImageSucceed', 1, '2026-03-01T10:00:00Z']);
  assert.deepEqual(ev.source, { component: 'kruise-daemon-imagepuller' });
  assert.equal(ev.reportingInstance, '');
});

test('a per-node recorder names its host as source.host and reportingInstance', () => {
  const ev = buildEvent({ ...nodeImage, metadata: { name: 'warm', namespace: 'team' } }, 'Warning', 'PullImageFailed', 'x', 'kruise-daemon-imagepuller', now, 'node-a');
  assert.deepEqual(ev.source, { component: 'kruise-daemon-imagepuller', host: 'node-a' });
  assert.equal(ev.reportingInstance, 'node-a');
  assert.equal(ev.metadata?.namespace, 'team');
});

test('events are written at most EVENT_WRITES_IN_FLIGHT at a time, in order, and dropped past EVENT_QUEUE_LIMIT waiting', async () => {
  const started: string[] = [];
  const release: (() => void)[] = [];
  const rest = { create: (_r: unknown, ev: { message: string }) => {
    started.push(ev.message);
    return new Promise((resolve) => release.push(() => resolve(ev)));
  } } as unknown as KubeRest;
  const rec = eventRecorder({ rest, component: 'test', log: silentLogger() });
  const total = EVENT_WRITES_IN_FLIGHT + EVENT_QUEUE_LIMIT + 5;
  for (let i = 0; i < total; i++) rec.event(nodeImage, 'Normal', 'R', `m${i}`);
  assert.equal(started.length, EVENT_WRITES_IN_FLIGHT);
  while (release.length) {
    release.shift()!();
    await new Promise((r) => setImmediate(r));
  }
  assert.equal(started.length, EVENT_WRITES_IN_FLIGHT + EVENT_QUEUE_LIMIT, 'the 5 past the queue limit were dropped');
  assert.deepEqual(started.slice(0, 3), ['m0', 'm1', 'm2']);
  assert.equal(started.at(-1), `m${EVENT_WRITES_IN_FLIGHT + EVENT_QUEUE_LIMIT - 1}`);
});
