import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { CHART_DIR, findHelm, helmTemplate, splitRendered } from '../../../scripts/chart.js';
import { localValues } from './helm-install.js';

const repo = resolve(import.meta.dirname, '../../..');
const helm = findHelm(repo, process.env);

type Workload = { kind: string; metadata: { name: string }; spec: { replicas?: number; template: { spec: {
  hostNetwork?: boolean; nodeSelector?: Record<string, string>; tolerations?: object[];
  containers: { image: string; env?: { name: string; value?: string }[] }[]; volumes?: { name: string; hostPath?: { path: string } }[] } } } };

describe('the local cluster\'s values file', { skip: helm ? false : 'helm is not built (bash e2e/cluster/build.sh)' }, () => {
  const values = localValues({ containerdDir: '/dev/shm/kts-node-x/containerd', daemonPort: 41234, featureGates: 'ResourceDistributionGate=true' });
  const dir = mkdtempSync(join(tmpdir(), 'kts-values-'));
  const file = join(dir, 'values.json');
  writeFileSync(file, JSON.stringify(values));
  const docs = splitRendered(helmTemplate(helm!, join(repo, CHART_DIR), ['-f', file])).map((d) => d.object as unknown as Workload);
  rmSync(dir, { recursive: true, force: true });
  const get = (kind: string, name: string) => docs.find((d) => d?.kind === kind && d.metadata.name === name)!;

  it('keeps the chart\'s 2 replicas of each manager Deployment on the pod network, pinned to the real node', () => {
    for (const name of ['kruise-webhook', 'kruise-controller-manager']) {
      const spec = get('Deployment', name).spec;
      assert.equal(spec.replicas, 2, name);
      assert.notEqual(spec.template.spec.hostNetwork, true, name);
      assert.deepEqual(spec.template.spec.nodeSelector, { 'kruise-ts.io/real-node': 'true' }, name);
      assert.deepEqual(spec.template.spec.tolerations, [{ key: 'kruise-ts.io/real-node', operator: 'Exists', effect: 'NoSchedule' }], name);
      assert.equal(spec.template.spec.containers[0]?.image, 'kruise-ts/manager:dev', name);
      assert.ok(spec.template.spec.containers[0]?.env?.some((e) => e.name === 'FEATURE_GATES' && e.value === 'ResourceDistributionGate=true'), name);
    }
  });

  it('points the daemon at the node\'s containerd directory and its own health port', () => {
    const spec = get('DaemonSet', 'kruise-daemon').spec.template.spec;
    assert.equal(spec.volumes?.find((v) => v.name === 'runtime-socket')?.hostPath?.path, '/dev/shm/kts-node-x/containerd');
    assert.ok(spec.containers[0]?.env?.some((e) => e.name === 'HEALTH_PORT' && e.value === '41234'));
  });

  it('leaves the Deployments empty when asked (no real node: host processes)', () => {
    assert.equal((localValues({ containerdDir: '/run/containerd', daemonPort: 10221, featureGates: '', managerReplicas: 0 }).manager as { replicas: number }).replicas, 0);
  });
});
