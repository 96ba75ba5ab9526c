// failurePolicy Fail, observed for real: with the webhook Deployment scaled to 0 (no endpoint behind Service
// kruise-webhook-service) the apiserver refuses pods in a normal namespace ("failed calling webhook") while
// kube-system, excluded by the namespaceSelector, still works; scaled back, pods are admitted again.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eventually, kubectl, stack } from './harness/kube.js';
import { podAdmitted } from './harness/node/helm-install.js';
import { needsPods, scale } from './harness/release.js';

const s = stack();
const pod = (name: string, namespace: string) => JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace, labels: { app: 'nginx' } },
  spec: { containers: [{ name: 'app', image: 'nginx:1.7.9' }] } });

describe('with the webhook Deployment scaled to 0', { skip: needsPods(s), timeout: 600_000 }, () => {
  before(async () => {
    await scale('webhook', 0);
  });
  after(async () => {
    kubectl(['delete', 'pod', 'still-works', '-n', 'kube-system', '--grace-period=0', '--force', '--ignore-not-found']);
    // Later users of the stack expect the webhook back.
    await scale('webhook', 2);
    await eventually('a pod admitted through the Service again', () => podAdmitted(process.env.KUBECONFIG!), 120_000);
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
