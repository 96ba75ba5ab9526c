// Container launch priority on the real apiserver: the webhook adds the barrier env, the controller releases
// p_<n> keys one priority at a time as containers become ready (kubelet played by the test), then marks the pod done.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadAll } from 'js-yaml';
import { eventually, getJson, kubectl, kubectlOk, stack } from './harness/kube.js';
import { ensureStandinNode, writeContainerStatuses } from './harness/kubelet-standin.js';

const s = stack();
const ns = 'e2e-launch-priority';
const node = 'kts-standin-lp';
const example = join(import.meta.dirname, 'cluster/examples/11-container-launch-priority.yaml');

interface Pod { metadata: { annotations?: Record<string, string> }; spec: { containers: { name: string; env?: { name: string; valueFrom?: { configMapKeyRef?: { name: string; key: string } } }[] }[] } }
const barrierKeys = (pod: string): string[] | undefined => {
  const r = kubectl(['get', 'configmap', '-n', ns, `${pod}-barrier`, '-o', 'json']);
  return r.code === 0 ? Object.keys((JSON.parse(r.stdout) as { data?: Record<string, string> }).data ?? {}).sort() : undefined;
};
const completed = (pod: string) => getJson<Pod>(['pod', '-n', ns, pod]).metadata.annotations?.['apps.kruise.io/container-launch-priority-completed'] === 'true';

describe('container launch priority', { skip: typeof s === 'string' ? s : false }, () => {
  before(() => {
    ensureStandinNode(node);
    kubectlOk(['create', 'namespace', ns]);
    // The seed's pods, bound to the stand-in node so the test decides when each container is ready.
    for (const doc of loadAll(readFileSync(example, 'utf8'))) {
      const pod = doc as { spec: { nodeName?: string } };
      pod.spec.nodeName = node;
      kubectlOk(['create', '-n', ns, '-f', '-'], JSON.stringify(pod));
    }
  });
  after(() => {
    kubectl(['delete', 'namespace', ns, '--wait=false']);
    kubectl(['delete', 'node', node, '--wait=false']);
  });

  it('Ordered: sidecar released first (p_0), main (p_-1) only after the sidecar is ready, then completed', async () => {
    const pod = getJson<Pod>(['pod', '-n', ns, 'ordered-pod']);
    const keys = pod.spec.containers.map((c) => c.env?.find((e) => e.name === 'KRUISE_CONTAINER_BARRIER')?.valueFrom?.configMapKeyRef?.key);
    assert.deepEqual(keys, ['p_0', 'p_-1'], 'the webhook gave each container its barrier key');
    await eventually('barrier with p_0', () => barrierKeys('ordered-pod')?.join() === 'p_0', 60_000);
    assert.equal(completed('ordered-pod'), false);
    // p_-1 must not be released while the sidecar is not ready, even after further pod updates.
    writeContainerStatuses(ns, 'ordered-pod', [{ name: 'sidecar', ready: false }]);
    await new Promise((r) => setTimeout(r, 2_000));
    assert.deepEqual(barrierKeys('ordered-pod'), ['p_0']);
    writeContainerStatuses(ns, 'ordered-pod', [{ name: 'sidecar', ready: true }]);
    await eventually('p_-1 released and the pod marked completed', () => barrierKeys('ordered-pod')?.join() === 'p_-1,p_0' && completed('ordered-pod'), 60_000);
  });

  it('env priorities: the container with KRUISE_CONTAINER_PRIORITY=1 is released before main', async () => {
    await eventually('barrier with p_1', () => barrierKeys('priority-pod')?.join() === 'p_1', 60_000);
    const owner = getJson<{ metadata: { ownerReferences?: { kind: string; name: string }[] } }>(['configmap', '-n', ns, 'priority-pod-barrier']).metadata.ownerReferences;
    assert.deepEqual(owner?.map((o) => `${o.kind}/${o.name}`), ['Pod/priority-pod'], 'the barrier is owned by its pod, so GC removes it with the pod');
    writeContainerStatuses(ns, 'priority-pod', [{ name: 'sidecar', ready: true }]);
    await eventually('p_0 released and completed', () => barrierKeys('priority-pod')?.join() === 'p_0,p_1' && completed('priority-pod'), 60_000);
  });
});
