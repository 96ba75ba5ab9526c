// client-node's KubeConfig as the webhook loads it: a kubeconfig file, else the pod's service account; outside a pod
// and without KUBECONFIG, a clear error at start instead of `https://undefined:undefined` on every request.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadKubeConfig, makeKube } from './client.js';
import { KubeconfigError } from './kubeconfig.js';

test('no KUBECONFIG and no KUBERNETES_SERVICE_HOST/PORT: KubeconfigError, not a client of https://undefined:undefined', () => {
  const missing = /in-cluster config: KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT must be set \(or give KUBECONFIG\)/;
  for (const env of [{}, { KUBERNETES_SERVICE_HOST: '10.0.0.1' }, { KUBERNETES_SERVICE_PORT: '443' }]) {
    assert.throws(() => loadKubeConfig({ kubeconfig: undefined }, env), (err: unknown) => err instanceof KubeconfigError && missing.test(err.message));
  }
  assert.throws(() => makeKube({ kubeconfig: undefined }), KubeconfigError, 'no env given is no in-cluster env');
});

test('a kubeconfig file wins over the environment', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'kube-client-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'config');
  writeFileSync(file, JSON.stringify({
    apiVersion: 'v1', kind: 'Config', 'current-context': 'x',
    clusters: [{ name: 'c', cluster: { server: 'https://127.0.0.1:6443' } }],
    users: [{ name: 'u', user: { token: 't' } }],
    contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }],
  }));
  const kube = makeKube({ kubeconfig: file }, {});
  assert.equal(kube.kc.getCurrentCluster()?.server, 'https://127.0.0.1:6443');
});
