// /validate-apps-kruise-io-podprobemarker over HTTP with the real validator: the order decode → gates → fields and
// the response codes of spec/node-probes-and-sidecar-lifecycle.md §3.1.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { validatePodProbeMarker } from '../../shared/domain/validation/pod-probe-marker.js';
import { review, testApp, type ReviewOptions } from '../test-helpers.js';
import { validatePodProbeMarkerRoute } from './validate-pod-probe-marker.js';

const ppm = (probes: unknown, selector: unknown = { matchLabels: { app: 'web' } }) => ({
  apiVersion: 'apps.kruise.io/v1alpha1', kind: 'PodProbeMarker', metadata: { name: 'ppm', namespace: 'default' }, spec: { selector, probes },
});
const good = ppm([{ name: 'healthy', containerName: 'main', probe: { tcpSocket: { port: 80 } }, podConditionType: 'game.kruise.io/healthy' }]);

async function admit(gates: Record<string, boolean>, o: ReviewOptions) {
  const { app } = testApp([validatePodProbeMarkerRoute({ gates, validate: validatePodProbeMarker })]);
  const kind = { group: 'apps.kruise.io', version: 'v1alpha1', kind: 'PodProbeMarker' };
  const res = await app.inject({ method: 'POST', url: '/validate-apps-kruise-io-podprobemarker', payload: review({ kind, namespace: 'default', ...o }) });
  assert.equal(res.statusCode, 200);
  return res.json().response as { allowed: boolean; status?: { code: number; message?: string } };
}
const on = { PodProbeMarkerGate: true, KruiseDaemon: true };

test('a valid PodProbeMarker is allowed with no message', async () => {
  const r = await admit(on, { object: good });
  assert.equal(r.allowed, true);
  assert.equal(r.status?.message, undefined);
});

test('field errors answer 400 with the aggregate message', async () => {
  const r = await admit(on, { object: ppm([{ name: 'Ready', containerName: 'main', probe: {} }]) });
  assert.deepEqual([r.allowed, r.status?.code, r.status?.message], [false, 400, 'spec.probes: Invalid value: "Ready": probe name can\'t be Ready']);
});

test('UPDATE of the selector answers 400 "selector must be immutable"', async () => {
  const next = ppm(good.spec.probes, { matchLabels: { app: 'other' } });
  const r = await admit(on, { operation: 'UPDATE', object: next, oldObject: good });
  assert.deepEqual([r.allowed, r.status?.code, r.status?.message], [false, 400, 'selector: Invalid value: {"matchLabels":{"app":"other"}}: selector must be immutable']);
});

test('gates: PodProbeMarkerGate first, then KruiseDaemon, both 403, whatever the object', async () => {
  const bad = ppm([]);
  const r1 = await admit({ PodProbeMarkerGate: false, KruiseDaemon: false }, { object: bad });
  assert.deepEqual([r1.allowed, r1.status?.code, r1.status?.message], [false, 403, 'feature-gate PodProbeMarkerGate is not enabled']);
  const r2 = await admit({ PodProbeMarkerGate: true, KruiseDaemon: false }, { object: good });
  assert.deepEqual([r2.allowed, r2.status?.code, r2.status?.message], [false, 403, 'feature-gate KruiseDaemon is not enabled']);
});

test('an undecodable object answers 400 before the gates are looked at', async () => {
  const r = await admit({ PodProbeMarkerGate: false, KruiseDaemon: true }, { object: ppm(3) });
  assert.deepEqual([r.allowed, r.status?.code], [false, 400]);
  assert.match(r.status?.message ?? '', /spec\.probes/);
});
