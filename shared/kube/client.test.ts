// client-node's KubeConfig as the webhook loads it: a kubeconfig file, else the pod's service account; outside a pod
// and without KUBECONFIG, a clear error at start instead of `https://undefined:undefined` on every request.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import { test } from 'node:test';
import { generateCA, generateServingCert } from '../../certs/generate.js';
import { loadKubeConfig, makeKube } from './client.js';
import { KubeconfigError } from './kubeconfig.js';
import { KubeTimeoutError } from './rest.js';

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

/** A kubeconfig file for `server`, trusting `caPem`, with a bearer token. */
function kubeconfigFile(t: { after(fn: () => void): void }, server: string, caPem?: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'kube-client-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'config');
  writeFileSync(file, JSON.stringify({
    apiVersion: 'v1', kind: 'Config', 'current-context': 'x',
    clusters: [{ name: 'c', cluster: { server, ...(caPem ? { 'certificate-authority-data': Buffer.from(caPem).toString('base64') } : {}) } }],
    users: [{ name: 'u', user: { token: 't0ken' } }],
    contexts: [{ name: 'x', context: { cluster: 'c', user: 'u', namespace: 'team' } }],
  }));
  return file;
}

test('every client-node request through makeKube fails with KubeTimeoutError when the apiserver accepts and never answers', { timeout: 20_000 }, async (t) => {
  const held: Socket[] = [];
  const blackHole = createTcpServer((s) => void held.push(s));
  await new Promise<void>((r) => blackHole.listen(0, '127.0.0.1', r));
  t.after(() => { for (const s of held) s.destroy(); blackHole.close(); });
  const kube = makeKube({ kubeconfig: kubeconfigFile(t, `https://127.0.0.1:${(blackHole.address() as AddressInfo).port}`), apiTimeoutMs: 150 });
  const timedOut = (path: RegExp) => (e: unknown) => e instanceof KubeTimeoutError && path.test(e.message) && /no answer within 150 ms/.test(e.message);
  await assert.rejects(kube.core.readNamespacedSecret({ namespace: 'kruise-system', name: 'certs' }), timedOut(/^GET \/api\/v1\/namespaces\/kruise-system\/secrets\/certs:/));
  await assert.rejects(kube.admission.readMutatingWebhookConfiguration({ name: 'kruise' }), timedOut(/mutatingwebhookconfigurations\/kruise/));
  // KubernetesObjectApi first asks for the resource list (discovery), which times out the same way.
  await assert.rejects(kube.objects.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'kruise-system' } }, undefined, 'All'), timedOut(/GET \/api\/v1:/));
});

test('a server that sends headers and then stalls the body times out too; a prompt one answers through the same clients', { timeout: 20_000 }, async (t) => {
  const ca = generateCA(new Date());
  const serving = generateServingCert(ca, '127.0.0.1', new Date());
  const seen: Array<{ url?: string; auth?: string }> = [];
  const server = createHttpsServer({ key: serving.key, cert: serving.cert }, (req, res) => {
    seen.push({ url: req.url, auth: req.headers.authorization });
    res.writeHead(200, { 'content-type': 'application/json' });
    if (req.url?.includes('/namespaces/slow')) { res.write('{"kind":"Namespace",'); return; }
    res.end(JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'fast' } }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.after(() => { server.closeAllConnections(); server.close(); });
  const kube = makeKube({ kubeconfig: kubeconfigFile(t, `https://127.0.0.1:${(server.address() as AddressInfo).port}`, ca.cert), apiTimeoutMs: 1_000 });
  assert.equal((await kube.core.readNamespace({ name: 'fast' })).metadata?.name, 'fast');
  assert.deepEqual(seen[0], { url: '/api/v1/namespaces/fast', auth: 'Bearer t0ken' });
  await assert.rejects(kube.core.readNamespace({ name: 'slow' }), (e: unknown) => e instanceof KubeTimeoutError && /^GET \/api\/v1\/namespaces\/slow: no answer within 1000 ms/.test(e.message));
});
