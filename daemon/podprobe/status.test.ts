// Status-sync vectors of spec §6.6 (pod_probe_controller_test.go TestUpdateNodePodProbeStatus).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ContainerProbeState, NodePodProbe } from '../../shared/api/node-pod-probe.js';
import { metaTime } from '../../shared/kube/meta-time.js';
import { probeKeyString, type ProbeResult } from './results.js';
import { planStatus, REASON_PROBE_FAILED, REASON_PROBE_SUCCEEDED } from './status.js';
import { demoNodePodProbe } from './testing.js';

const NOW = Date.UTC(2026, 11, 6, 5, 0, 0);
const EARLIER = metaTime(NOW - 3_600_000);
const state = (name: string, s: ContainerProbeState['state']): ContainerProbeState => ({ name, state: s, lastProbeTime: EARLIER, lastTransitionTime: EARLIER });
const result = (pod: number, probeName: string, s: ProbeResult['state'], message = ''): ProbeResult => ({
  containerId: `c-${pod}`, state: s, message, lastProbeTimeMs: NOW - 1_000,
  key: { podNs: 'default', podName: `pod-${pod}`, podUid: `pod-${pod}-uid`, podIP: `${pod + 1}.${pod + 1}.${pod + 1}.${pod + 1}`, containerName: 'main', probeName },
});
const fresh = (...rs: ProbeResult[]) => new Set(rs.map((r) => probeKeyString(r.key)));

function withStatus(npp: NodePodProbe, statuses: Array<[number, ContainerProbeState[]]>): NodePodProbe {
  return { ...npp, status: { podProbeStatuses: statuses.map(([i, probeStates]) => ({ name: `pod-${i}`, namespace: 'default', uid: `pod-${i}-uid`, probeStates })) } };
}

test('test1: pod-0 kept, pod-1 appended with its new result', () => {
  const npp = withStatus(demoNodePodProbe(), [[0, [state('ppm-1#healthy', 'Succeeded')]]]);
  const r = result(1, 'ppm-1#healthy', 'Succeeded', 'ok');
  const plan = planStatus(npp, [r], fresh(r), NOW);
  assert.equal(plan.changed, true);
  assert.deepEqual(plan.status.podProbeStatuses, [
    { name: 'pod-0', namespace: 'default', uid: 'pod-0-uid', probeStates: [state('ppm-1#healthy', 'Succeeded')] },
    { name: 'pod-1', namespace: 'default', uid: 'pod-1-uid', probeStates: [{ name: 'ppm-1#healthy', state: 'Succeeded', message: 'ok', lastProbeTime: metaTime(NOW - 1_000), lastTransitionTime: metaTime(NOW) }] },
  ]);
  assert.deepEqual(plan.events, [{ involvedObject: { kind: 'Pod', apiVersion: 'v1', namespace: 'default', name: 'pod-1', uid: 'pod-1-uid' }, type: 'Normal', reason: REASON_PROBE_SUCCEEDED, message: 'ok' }]);
});

test('test2: an existing state is updated in place (order kept), its transition time moves only on a new state', () => {
  const base = demoNodePodProbe();
  base.spec!.podProbes![1].probes!.push({ name: 'ppm-1#other', containerName: 'main', probe: {} });
  const npp = withStatus(base, [[1, [state('ppm-1#other', 'Failed'), state('ppm-1#healthy', 'Failed')]]]);
  const r = result(1, 'ppm-1#healthy', 'Succeeded');
  const plan = planStatus(npp, [r], fresh(), NOW);
  const states = plan.status.podProbeStatuses![0].probeStates!;
  assert.deepEqual(states.map((s) => [s.name, s.state]), [['ppm-1#other', 'Failed'], ['ppm-1#healthy', 'Succeeded']]);
  assert.equal(states[1].lastTransitionTime, metaTime(NOW));
  assert.equal(states[1].message, undefined);
  assert.deepEqual(plan.events, [], 'a result that was not stored since the last sync gets no second event');
  const same = planStatus(npp, [{ ...r, state: 'Failed' }], fresh(), NOW).status.podProbeStatuses![0].probeStates![1];
  assert.equal(same.lastTransitionTime, EARLIER);
  assert.equal(same.lastProbeTime, metaTime(NOW - 1_000));
});

test('test3: states of probes gone from the spec are pruned before the result is added', () => {
  const npp = withStatus(demoNodePodProbe(), [[1, [state('ppm-1#other', 'Failed')]]]);
  const r = result(1, 'ppm-1#healthy', 'Failed', 'boom');
  const plan = planStatus(npp, [r], fresh(r), NOW);
  assert.deepEqual(plan.status.podProbeStatuses!.map((p) => p.probeStates!.map((s) => `${s.name}=${s.state}`)), [['ppm-1#healthy=Failed']]);
  assert.equal(plan.events[0].reason, REASON_PROBE_FAILED);
  assert.equal(plan.events[0].type, 'Normal');
});

test('test4: no results; invalid states pruned and a pod entry left empty dropped', () => {
  const npp = withStatus(demoNodePodProbe(), [[1, [state('ppm-2#other', 'Failed'), state('ppm-1#healthy', 'Failed')]], [2, [state('ppm-2#other', 'Failed')]]]);
  const plan = planStatus(npp, [], fresh(), NOW);
  assert.deepEqual(plan.status, { podProbeStatuses: [{ name: 'pod-1', namespace: 'default', uid: 'pod-1-uid', probeStates: [state('ppm-1#healthy', 'Failed')] }] });
  assert.equal(plan.changed, true);
});

test('results of probes not in the spec are neither written nor announced; an unchanged status is not written', () => {
  const npp = withStatus(demoNodePodProbe(), [[0, [state('ppm-1#healthy', 'Succeeded')]]]);
  const stray = result(5, 'ppm-1#healthy', 'Succeeded');
  const plan = planStatus(npp, [stray], fresh(stray), NOW);
  assert.equal(plan.changed, false);
  assert.deepEqual(plan.events, []);
  const unknown = result(0, 'ppm-1#healthy', 'Unknown');
  assert.equal(planStatus(npp, [unknown], fresh(unknown), NOW).events[0].reason, REASON_PROBE_FAILED);
});
