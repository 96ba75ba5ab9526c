import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { kubeletConfig } from './kubelet-config.js';

const input = {
  socket: '/tmp/kts-node-x/containerd/containerd.sock', port: 40001, healthzPort: 40002, clientCaFile: '/run/pki/ca.crt',
  cgroupRoot: '/kruise-ts-x', podLogsDir: '/tmp/kts-node-x/pod-logs', volumePluginDir: '/tmp/kts-node-x/kubelet/vp',
  taints: [{ key: 'kruise-ts.io/real-node', value: 'true', effect: 'NoSchedule' as const }],
};

describe('kubelet config', () => {
  const c = kubeletConfig(input);

  it('serves on loopback only and never anonymously', () => {
    assert.equal(c.address, '127.0.0.1');
    assert.equal(c.healthzBindAddress, '127.0.0.1');
    assert.equal(c.readOnlyPort, 0);
    assert.deepEqual(c.authentication, { anonymous: { enabled: false }, webhook: { enabled: true }, x509: { clientCAFile: '/run/pki/ca.crt' } });
    assert.deepEqual(c.authorization, { mode: 'Webhook' });
  });

  it('uses the private runtime, cgroupfs under the per-run cgroup root, and per-run directories', () => {
    assert.equal(c.containerRuntimeEndpoint, `unix://${input.socket}`);
    assert.equal(c.cgroupDriver, 'cgroupfs');
    assert.equal(c.cgroupRoot, '/kruise-ts-x');
    assert.equal(c.failCgroupV1, false);
    assert.equal(c.podLogsDir, input.podLogsDir);
    assert.equal(c.volumePluginDir, input.volumePluginDir);
    assert.equal(c.makeIPTablesUtilChains, false);
  });

  it('registers with the given taints', () => {
    assert.deepEqual(c.registerWithTaints, input.taints);
  });

  it('a 1.30 kubelet gets no feature gate or field it does not know (it refuses unknown gates)', () => {
    const old = JSON.parse(JSON.stringify(kubeletConfig({ ...input, minor: 30 }))) as Record<string, unknown>;
    assert.equal(old.featureGates, undefined);
    assert.equal(old.crashLoopBackOff, undefined);
    assert.equal('failCgroupV1' in old, false);
    assert.deepEqual(kubeletConfig({ ...input, minor: 34 }).featureGates, { KubeletCrashLoopBackOffMax: true });
  });
});
