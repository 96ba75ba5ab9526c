// failurePolicy Fail, observed for real: with the manager stopped the apiserver refuses pods in a normal
// namespace ("failed calling webhook") while kube-system, excluded by the namespaceSelector, still works.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { killGroups } from './harness/cluster/state.js';
import { startManager } from './harness/cluster/manager.js';
import { kubectl, stack, updateStack } from './harness/kube.js';

const s = stack();
const pod = (name: string, namespace: string) => JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace, labels: { app: 'nginx' } },
  spec: { containers: [{ name: 'app', image: 'nginx:1.7.9' }] } });

describe('with the manager stopped', { skip: typeof s === 'string' ? s : false }, () => {
  before(async () => {
    if (typeof s === 'string' || !s.manager) return;
    await killGroups([s.manager.pid]);
  });
  after(async () => {
    if (typeof s === 'string' || !s.manager) return;
    kubectl(['delete', 'pod', 'still-works', '-n', 'kube-system', '--grace-period=0', '--force', '--ignore-not-found']);
    // Later users of the stack (the demo) expect a manager; start a fresh one and record it.
    const m = await startManager({ repoRoot: join(import.meta.dirname, '..'), kubeconfig: s.kubeconfig, logDir: s.logDir });
    m.daemon.child.unref();
    updateStack({ ...s, manager: { pid: m.daemon.pid, log: m.daemon.logFile, webhookPort: m.webhookPort, healthPort: m.healthPort } });
  });

  it('a pod in the default namespace is refused with the apiserver\'s "failed calling webhook" error', () => {
    const r = kubectl(['create', '-f', '-'], pod('refused', 'default'));
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /failed calling webhook "mpod\.kb\.io"/);
  });

  it('a pod in kube-system is still created', () => {
    const r = kubectl(['create', '-f', '-'], pod('still-works', 'kube-system'));
    assert.equal(r.code, 0, r.stderr);
  });
});
