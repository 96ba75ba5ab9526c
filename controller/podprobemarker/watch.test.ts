// The pod events that wake PodProbeMarkers (§4.1) and GetPodProbeMarkerForPod's vectors (§4.4,
// pod_probe_marker_test.go), on the pure handler with plain maps for caches.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { V1Node } from '@kubernetes/client-node';
import type { Pod } from '../../shared/api/meta.js';
import type { PodProbeMarker } from '../../shared/api/pod-probe-marker.js';
import { markersForPod } from './pods.js';
import { podWatch } from './watch.js';

const marker = (name: string, matchLabels?: Record<string, string>): PodProbeMarker =>
  ({ metadata: { name, namespace: 'ns' }, spec: { ...(matchLabels ? { selector: { matchLabels } } : {}), probes: [] } });
const pod = (o: { initialized?: boolean; ip?: string; node?: string; phase?: string; annotations?: Record<string, string> } = {}): Pod => ({
  metadata: { name: 'p', namespace: 'ns', labels: { app: 'web' }, ...(o.annotations ? { annotations: o.annotations } : {}) },
  spec: { nodeName: o.node ?? 'n1', containers: [] },
  status: { phase: o.phase ?? 'Running', podIP: o.ip ?? '', conditions: [{ type: 'Initialized', status: o.initialized ? 'True' : 'False' }] },
});

function harness(markers = [marker('web', { app: 'web' }), marker('other', { app: 'db' })]) {
  const pods = new Map<string, Pod>();
  const nodes = new Map<string, V1Node>([['n1', { metadata: { name: 'n1' } }], ['vk', { metadata: { name: 'vk', labels: { type: 'virtual-kubelet' } } }]]);
  const woken: string[] = [];
  const h = podWatch({
    pods: { get: (k) => pods.get(k) }, nodes: { get: (n) => nodes.get(n) },
    markersOf: () => markers, marker: (_ns, n) => markers.find((m) => m.metadata?.name === n), enqueue: (k) => woken.push(k),
  });
  const see = (p: Pod) => { pods.set('ns/p', p); h(p); };
  const gone = (p: Pod) => { pods.delete('ns/p'); h(p); };
  return { see, gone, woken };
}

describe('podWatch (§4.1)', () => {
  it('a create wakes nothing; the update that makes the pod Initialized wakes the PPMs matching it', () => {
    const w = harness();
    w.see(pod({ initialized: true, ip: '1.1.1.1' }));
    assert.deepEqual(w.woken, []);
    const w2 = harness();
    w2.see(pod());
    w2.see(pod({ initialized: true }));
    assert.deepEqual(w2.woken, ['ns/web']);
  });
  it('an IP change wakes; an unrelated update does not', () => {
    const w = harness();
    w.see(pod({ initialized: true }));
    w.see(pod({ initialized: true }));
    assert.deepEqual(w.woken, []);
    w.see(pod({ initialized: true, ip: '1.1.1.1' }));
    assert.deepEqual(w.woken, ['ns/web']);
  });
  it('finished, unscheduled and virtual-kubelet pods wake nothing; a delete forgets the pod', () => {
    for (const o of [{ phase: 'Succeeded' }, { node: '' }, { node: 'vk' }, { node: 'missing' }]) {
      const w = harness();
      w.see(pod());
      w.see(pod({ initialized: true, ...o }));
      assert.deepEqual(w.woken, [], JSON.stringify(o));
    }
    const w = harness();
    w.see(pod());
    w.gone(pod());
    w.see(pod({ initialized: true }));
    assert.deepEqual(w.woken, [], 'after a delete the next sight is a first sight');
  });
});

describe('markersForPod (§4.4)', () => {
  const all = [marker('game-server-probe-v1', { app: 'web' }), marker('game-server-probe-v2', { app: 'web' }), marker('db', { app: 'db' }), marker('nil'), { ...marker('empty'), spec: { selector: {}, probes: [] } }];
  const get = (n: string) => all.find((m) => m.metadata?.name === n);
  it('the PPMs whose valid, non-empty selector matches (nil and empty selectors match nothing)', () => {
    assert.deepEqual(markersForPod(pod(), all, get).map((m) => m.metadata?.name), ['game-server-probe-v1', 'game-server-probe-v2']);
    assert.deepEqual(markersForPod({ ...pod(), metadata: { name: 'p', namespace: 'ns', labels: { app: 'none' } } }, all, get), []);
  });
  it('kruise.io/podprobemarker-list names exactly its PPMs, selectors ignored, missing ones skipped', () => {
    const annotated = pod({ annotations: { 'kruise.io/podprobemarker-list': 'db,game-server-probe-v2,gone' } });
    assert.deepEqual(markersForPod(annotated, all, get).map((m) => m.metadata?.name), ['db', 'game-server-probe-v2']);
  });
});
