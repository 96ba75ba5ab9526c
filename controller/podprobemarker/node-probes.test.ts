// The merge vectors of OpenKruise v1.9.0 (pod_probe_marker_controller_test.go; spec/node-probes-and-sidecar-
// lifecycle.md §4.6) on the pure merge, and where kruise-ts removes what upstream leaves behind (§11 quirks 2, 3).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Pod } from '../../shared/api/meta.js';
import type { NodePodProbeSpec, PodProbe } from '../../shared/api/node-pod-probe.js';
import type { PodContainerProbe, PodProbeMarker } from '../../shared/api/pod-probe-marker.js';
import { holdsUnmatched, mergeNodePodProbe, nodeProbe, removeMarkerProbes } from './node-probes.js';

const exec = (cmd: string) => ({ exec: { command: ['/bin/sh', '-c', cmd] } });
const healthy: PodContainerProbe = { name: 'healthy', containerName: 'main', probe: exec('/healthy.sh'), podConditionType: 'game.kruise.io/healthy' };
const ppm = (probes: PodContainerProbe[] = [healthy]): PodProbeMarker => ({ metadata: { name: 'ppm-1', namespace: 'sp1' }, spec: { selector: { matchLabels: { app: 'test' } }, probes } });
const pod = (name: string, containers: NonNullable<Pod['spec']>['containers'] = [{ name: 'main', ports: [{ name: 'main-port', containerPort: 9090 }] }]): Pod =>
  ({ metadata: { name, namespace: 'sp1', uid: `${name}-uid` }, spec: { nodeName: 'node-1', containers }, status: { podIP: '1.1.1.1' } });
const idle = (container = 'main') => ({ name: 'ppm-2#idle', containerName: container, probe: exec('/idle.sh') });
const entry = (name: string, probes: PodProbe['probes'], ip = '1.1.1.1'): PodProbe => ({ name, namespace: 'sp1', uid: `${name}-uid`, IP: ip, probes });
const spec = (...entries: PodProbe[]): NodePodProbeSpec => ({ podProbes: entries });
const merged = (s: NodePodProbeSpec, p: PodProbeMarker, pods: Pod[]) => mergeNodePodProbe(s, p, pods, new Set(pods.map((x) => x.metadata!.uid!))).podProbes;
const mine = (probe = exec('/healthy.sh')) => ({ name: 'ppm-1#healthy', containerName: 'main', probe });

describe('mergeNodePodProbe (§4.3, vectors §4.6)', () => {
  it('test1: the PPM probe is appended after the other PPM\'s', () => {
    assert.deepEqual(merged(spec(entry('pod-1', [idle()])), ppm(), [pod('pod-1')]), [entry('pod-1', [idle(), mine()])]);
  });
  it('test5: another container\'s probe stays', () => {
    assert.deepEqual(merged(spec(entry('pod-1', [idle('log')])), ppm(), [pod('pod-1')]), [entry('pod-1', [idle('log'), mine()])]);
  });
  it('test6: a pod without an entry gets one, after the others', () => {
    assert.deepEqual(merged(spec(entry('pod-2', [idle()])), ppm(), [pod('pod-1')]), [entry('pod-2', [idle()]), entry('pod-1', [mine()])]);
  });
  it('test7: a changed probe replaces the old one in place', () => {
    const before = spec(entry('pod-1', [idle(), mine(exec('/home/admin/healthy.sh'))]));
    assert.deepEqual(merged(before, ppm(), [pod('pod-1')]), [entry('pod-1', [idle(), mine()])]);
  });
  it('an unchanged spec comes back equal (no write), and the input is not modified', () => {
    const before = spec(entry('pod-1', [idle(), mine()]));
    const copy = structuredClone(before);
    assert.deepEqual(merged(before, ppm(), [pod('pod-1')]), before.podProbes);
    assert.deepEqual(before, copy);
  });
  it('an entry\'s empty IP is filled in; a set one is never changed', () => {
    assert.deepEqual(merged(spec(entry('pod-1', [mine()], '')), ppm(), [pod('pod-1')])[0]!.IP, '1.1.1.1');
    assert.deepEqual(merged(spec(entry('pod-1', [mine()], '9.9.9.9')), ppm(), [pod('pod-1')])[0]!.IP, '9.9.9.9');
  });
  for (const [name, handler] of [['test8 tcp', { tcpSocket: { port: 'main-port' } }], ['test9 http', { httpGet: { path: '/', port: 'main-port', scheme: 'HTTP' } }]] as const) {
    it(`${name}: a named port the container lacks skips the probe`, () => {
      const p = ppm([{ name: 'check', containerName: 'main', probe: handler, podConditionType: 'c' }]);
      const r = mergeNodePodProbe(spec(entry('pod-1', [idle()])), p, [pod('pod-1', [{ name: 'main-v2', ports: [{ name: 'main-port', containerPort: 9090 }] }])], new Set(['pod-1-uid']));
      assert.deepEqual(r.podProbes, [entry('pod-1', [idle()])]);
      assert.deepEqual(r.errors, ['Failed to get container by name: main in pod: sp1/pod-1']);
    });
  }
  it('test10/11 (differs from upstream, §11 quirk 3): a probe no longer in the PPM is removed; one that does not convert is not added', () => {
    const p = ppm([{ name: 'tcpCheckHealthy', containerName: 'main', probe: { tcpSocket: { port: 'main-port' } }, podConditionType: 'c' }]);
    const before = spec(entry('pod-1', [idle(), mine()]));
    assert.deepEqual(merged(before, p, [pod('pod-1', [])]), [entry('pod-1', [idle()])]);
  });
  it('named ports resolve to the container port; integer ports and exec probes are copied', () => {
    const withPort = pod('p', [{ name: 'main', ports: [{ name: 'main-port', containerPort: 80 }] }]);
    assert.deepEqual(nodeProbe('ppm-1', { name: 't', containerName: 'main', probe: { tcpSocket: { port: 'main-port' } } }, withPort),
      { name: 'ppm-1#t', containerName: 'main', probe: { tcpSocket: { port: 80 } } });
    assert.deepEqual(nodeProbe('ppm-1', { name: 'h', containerName: 'main', probe: { httpGet: { path: '/', port: 'main-port', scheme: 'HTTP' } } }, withPort),
      { name: 'ppm-1#h', containerName: 'main', probe: { httpGet: { path: '/', port: 80, scheme: 'HTTP' } } });
    assert.deepEqual(nodeProbe('ppm-1', { name: 't', containerName: 'main', probe: { tcpSocket: { port: 80 } } }, withPort), { name: 'ppm-1#t', containerName: 'main', probe: { tcpSocket: { port: 80 } } });
    assert.deepEqual(nodeProbe('ppm-1', { name: 't', containerName: 'main', probe: { tcpSocket: { port: '8080' } } }, withPort), { name: 'ppm-1#t', containerName: 'main', probe: { tcpSocket: { port: 8080 } } });
    assert.equal(nodeProbe('ppm-1', { name: 't', containerName: 'main-fake', probe: { tcpSocket: { port: 'main-port' } } }, { ...withPort, metadata: { name: 'pod1', namespace: 'sp1' } }),
      'Failed to get container by name: main-fake in pod: sp1/pod1');
    assert.equal(nodeProbe('ppm-1', { name: 't', containerName: 'main', probe: { tcpSocket: { port: 'other' } } }, withPort), 'Failed to extract port for container: main in pod: sp1/p');
    assert.equal(nodeProbe('ppm-1', { name: 't', containerName: 'main', probe: { tcpSocket: { port: '70000' } } }, withPort), 'Failed to extract port for container: main in pod: sp1/p');
  });
  it('a pod the PPM no longer matches loses its probes, and its entry when none are left (§11 quirk 3)', () => {
    const before = spec(entry('pod-1', [idle(), mine()]), entry('pod-2', [mine()]), { ...entry('pod-3', [mine()]), namespace: 'other' });
    assert.equal(holdsUnmatched(before, ppm(), new Set()), true);
    const r = mergeNodePodProbe(before, ppm(), [], new Set());
    assert.deepEqual(r.podProbes, [entry('pod-1', [idle()]), { ...entry('pod-3', [mine()]), namespace: 'other' }]);
    assert.equal(holdsUnmatched({ podProbes: r.podProbes }, ppm(), new Set()), false);
  });
});

describe('removeMarkerProbes (§4.5)', () => {
  it('test3: the PPM\'s probes go from every entry of its namespace', () => {
    assert.deepEqual(removeMarkerProbes(spec(entry('pod-1', [idle(), mine()])), 'sp1', 'ppm-1'), [entry('pod-1', [idle()])]);
  });
  it('test4: an entry left without probes is dropped', () => {
    assert.deepEqual(removeMarkerProbes(spec(entry('pod-1', [mine()])), 'sp1', 'ppm-1'), []);
  });
  it('other namespaces keep theirs, IPs are kept; PPM names are matched as a prefix, not a substring (§11 quirk 2)', () => {
    const other = { ...entry('pod-9', [mine()]), namespace: 'x' };
    const xppm = { name: 'xppm-1#healthy', containerName: 'main', probe: exec('/x') };
    assert.deepEqual(removeMarkerProbes(spec(entry('pod-1', [xppm, mine()], '2.2.2.2'), other), 'sp1', 'ppm-1'), [entry('pod-1', [xppm], '2.2.2.2'), other]);
  });
});
