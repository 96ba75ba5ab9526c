// failurePolicy Fail, observed for real: with the webhook Deployment scaled to 0 (no endpoint behind Service
// kruise-webhook-service) the apiserver refuses pods in a normal namespace ("failed calling webhook") while
// kube-system, excluded by the namespaceSelector, still works; scaled back, pods are admitted again.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { eventually, getJson, kubectl, kubectlOk, stack } from './harness/kube.js';
import { podAdmitted } from './harness/node/helm-install.js';
import { needsPods, scale } from './harness/release.js';

const s = stack();
// The README's break-glass ("Operate"), verbatim: the test fails if the README's command changes without it.
const breakGlass = (policy: 'Ignore' | 'Fail') =>
  `[{"op":"test","path":"/webhooks/0/name","value":"mpod.kb.io"},{"op":"replace","path":"/webhooks/0/failurePolicy","value":"${policy}"}]`;
const podPolicy = () => getJson<{ webhooks: { name: string; failurePolicy: string }[] }>(['mutatingwebhookconfiguration', 'kruise-mutating-webhook-configuration'])
  .webhooks.find((w) => w.name === 'mpod.kb.io')?.failurePolicy;
const pod = (name: string, namespace: string) => JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace, labels: { app: 'nginx' } },
  spec: { containers: [{ name: 'app', image: 'nginx:1.7.9' }] } });

describe('with the webhook Deployment scaled to 0', { skip: needsPods(s), timeout: 600_000 }, () => {
  before(async () => {
    await scale('webhook', 0);
  });
  after(async () => {
    kubectl(['delete', 'pod', 'still-works', '-n', 'kube-system', '--grace-period=0', '--force', '--ignore-not-found']);
    kubectl(['delete', 'pod', 'break-glass', '--grace-period=0', '--force', '--ignore-not-found']);
    if (podPolicy() !== 'Fail') kubectlOk(['patch', 'mutatingwebhookconfiguration', 'kruise-mutating-webhook-configuration', '--type=json', '-p', breakGlass('Fail')]);
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

  it('the README\'s break-glass (pod webhook failurePolicy Ignore) lets a pod in without its sidecars; the same patch with Fail undoes it', async () => {
    assert.ok(readFileSync(new URL('../README.md', import.meta.url), 'utf8').includes(`'${breakGlass('Ignore')}'`), 'README carries the break-glass patch');
    kubectlOk(['patch', 'mutatingwebhookconfiguration', 'kruise-mutating-webhook-configuration', '--type=json', '-p', breakGlass('Ignore')]);
    await eventually('the pod admitted without the webhook', () => kubectl(['create', '-f', '-'], pod('break-glass', 'default')).code === 0, 30_000);
    const created = getJson<{ metadata: { annotations?: Record<string, string> }; spec: { containers: unknown[] } }>(['pod', 'break-glass']);
    assert.equal(created.spec.containers.length, 1);
    assert.equal(created.metadata.annotations?.['kruise.io/sidecarset-hash'], undefined);
    kubectlOk(['patch', 'mutatingwebhookconfiguration', 'kruise-mutating-webhook-configuration', '--type=json', '-p', breakGlass('Fail')]);
    assert.equal(podPolicy(), 'Fail');
    await eventually('pods refused again', () => /failed calling webhook "mpod\.kb\.io"/.test(kubectl(['create', '-f', '-'], pod('refused-again', 'default')).stderr), 30_000);
  });
});
