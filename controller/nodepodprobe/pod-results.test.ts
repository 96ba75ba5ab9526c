// The markerPolicy mapping of spec/node-probes-and-sidecar-lifecycle.md §5.3 (its derived vectors) on the pure
// functions: what a pod's probe states ask for, and the pods/status patch that writes only what differs.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Pod } from '../../shared/api/meta.js';
import type { ContainerProbeState } from '../../shared/api/node-pod-probe.js';
import type { PodContainerProbe, PodProbeMarker } from '../../shared/api/pod-probe-marker.js';
import { podResultsPatch, probeResults } from './pod-results.js';

const COST = 'controller.kubernetes.io/pod-deletion-cost';
const healthy: PodContainerProbe = {
  name: 'healthy', containerName: 'main', probe: { exec: { command: ['/healthy.sh'] } }, podConditionType: 'game.kruise.io/healthy',
  markerPolicy: [
    { state: 'Succeeded', labels: { 'server-healthy': 'true' }, annotations: { [COST]: '10' } },
    { state: 'Failed', labels: { 'server-healthy': 'false' }, annotations: { [COST]: '-10' } },
  ],
};
const ppm = (probes: PodContainerProbe[] = [healthy]): PodProbeMarker => ({ metadata: { name: 'ppm-1', namespace: 'sp1' }, spec: { selector: { matchLabels: { app: 'test' } }, probes } });
const state = (s: Partial<ContainerProbeState>): ContainerProbeState => ({ name: 'ppm-1#healthy', state: 'Succeeded', lastProbeTime: '2026-01-01T00:00:01Z', lastTransitionTime: '2026-01-01T00:00:00Z', ...s });
const pod = (labels?: Record<string, string>, annotations?: Record<string, string>, conditions: NonNullable<Pod['status']>['conditions'] = []): Pod =>
  ({ metadata: { name: 'pod-1', namespace: 'sp1', uid: 'u1', ...(labels ? { labels } : {}), ...(annotations ? { annotations } : {}) }, status: { conditions } });
const results = (states: ContainerProbeState[], markers: PodProbeMarker[] = [ppm()]) =>
  probeResults({ name: 'pod-1', namespace: 'sp1', uid: 'u1', probeStates: states }, (n) => markers.find((m) => m.metadata?.name === n));

describe('probe results onto the pod (§5.3 vectors)', () => {
  it('Succeeded, message ok: condition True with the state\'s times and message, Succeeded policy set', () => {
    assert.deepEqual(podResultsPatch(pod({ app: 'test' }), results([state({ message: 'ok' })])), {
      metadata: { labels: { 'server-healthy': 'true' }, annotations: { [COST]: '10' } },
      status: { conditions: [{ type: 'game.kruise.io/healthy', status: 'True', lastProbeTime: '2026-01-01T00:00:01Z', lastTransitionTime: '2026-01-01T00:00:00Z', message: 'ok' }] },
    });
  });
  it('Failed: condition False, Failed policy overrides the Succeeded values', () => {
    const p = pod({ 'server-healthy': 'true' }, { [COST]: '10' }, [{ type: 'game.kruise.io/healthy', status: 'True', message: 'ok', reason: 'x' }]);
    assert.deepEqual(podResultsPatch(p, results([state({ state: 'Failed', message: 'boom' })])), {
      metadata: { labels: { 'server-healthy': 'false' }, annotations: { [COST]: '-10' } },
      status: { conditions: [{ type: 'game.kruise.io/healthy', status: 'False', message: 'boom', reason: null, lastProbeTime: '2026-01-01T00:00:01Z', lastTransitionTime: '2026-01-01T00:00:00Z' }] },
    });
  });
  it('Unknown: condition False with no message, both policies\' keys removed', () => {
    const p = pod({ 'server-healthy': 'true', app: 'test' }, { [COST]: '10' });
    assert.deepEqual(podResultsPatch(p, results([state({ state: 'Unknown' })])), {
      metadata: { labels: { 'server-healthy': null }, annotations: { [COST]: null } },
      status: { conditions: [{ type: 'game.kruise.io/healthy', status: 'False', lastProbeTime: '2026-01-01T00:00:01Z', lastTransitionTime: '2026-01-01T00:00:00Z' }] },
    });
  });
  it('an empty state, a name without #, and a missing PPM write nothing', () => {
    assert.equal(podResultsPatch(pod(), results([state({ state: '' as never })])), undefined);
    assert.equal(podResultsPatch(pod(), results([state({ name: 'nohash' })])), undefined);
    assert.equal(podResultsPatch(pod(), results([state({})], [])), undefined);
  });
  it('Failed with a policy only for Succeeded: its label is removed', () => {
    const only = ppm([{ ...healthy, podConditionType: undefined, markerPolicy: [{ state: 'Succeeded', labels: { a: '1' } }] }]);
    assert.deepEqual(podResultsPatch(pod({ a: '1' }), results([state({ state: 'Failed' })], [only])), { metadata: { labels: { a: null } } });
  });
  it('a pod without labels gets them (upstream panics here, §11 quirk 4)', () => {
    assert.deepEqual((podResultsPatch(pod(), results([state({})])) as { metadata: object }).metadata, { labels: { 'server-healthy': 'true' }, annotations: { [COST]: '10' } });
  });
  it('nothing differs: no write; a condition with the same status and message is not rewritten for newer times', () => {
    const p = pod({ 'server-healthy': 'true' }, { [COST]: '10' }, [{ type: 'game.kruise.io/healthy', status: 'True', message: 'ok' }]);
    assert.equal(podResultsPatch(p, results([state({ message: 'ok', lastProbeTime: '2027-01-01T00:00:00Z' })])), undefined);
  });
  it('two probes on one condition type: the first wins the condition, both policies apply, later states override', () => {
    const other: PodContainerProbe = { name: 'other', containerName: 'main', probe: {}, podConditionType: 'game.kruise.io/healthy', markerPolicy: [{ state: 'Failed', labels: { 'server-healthy': 'dead' } }] };
    const r = results([state({ message: 'ok' }), state({ name: 'ppm-1#other', state: 'Failed' })], [ppm([healthy, other])]);
    assert.deepEqual(r.conditions.map((c) => [c.type, c.status]), [['game.kruise.io/healthy', 'True']]);
    assert.deepEqual([...r.labels], [['server-healthy', 'dead']]);
  });
});
