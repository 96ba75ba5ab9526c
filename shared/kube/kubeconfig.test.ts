// The daemon's kubeconfig / in-cluster loader: which context it reads, file paths against the kubeconfig's
// directory, token-file re-reads, and clear errors for what it does not support.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { apiServerFromKubeconfig, inClusterApiServer, inClusterServer, KubeconfigError, loadKubeconfigFile } from './kubeconfig.js';

const files = (m: Record<string, string>) => ({
  readFileSync: (p: string) => {
    if (!(p in m)) throw new Error(`ENOENT: ${p}`);
    return Buffer.from(m[p]!);
  },
});

const doc = (user: Record<string, unknown>, cluster: Record<string, unknown> = { server: 'https://api:6443/' }) => ({
  'current-context': 'b',
  clusters: [{ name: 'c1', cluster: { server: 'https://other' } }, { name: 'c2', cluster }],
  users: [{ name: 'u1', user: { token: 'wrong' } }, { name: 'u2', user }],
  contexts: [{ name: 'a', context: { cluster: 'c1', user: 'u1' } }, { name: 'b', context: { cluster: 'c2', user: 'u2' } }],
});

test('the current context picks cluster and user; inline data is base64; a trailing slash is dropped', () => {
  const api = apiServerFromKubeconfig(doc({ token: 't0ken', 'client-certificate-data': Buffer.from('CERT').toString('base64'), 'client-key-data': Buffer.from('KEY').toString('base64') },
    { server: 'https://api:6443/', 'certificate-authority-data': Buffer.from('CA').toString('base64'), 'tls-server-name': 'kubernetes' }), '/x');
  assert.equal(api.server, 'https://api:6443');
  assert.equal(api.authorization(), 'Bearer t0ken');
  assert.equal(String(api.tls.ca), 'CA');
  assert.equal(String(api.tls.cert), 'CERT');
  assert.equal(String(api.tls.key), 'KEY');
  assert.equal(api.tls.servername, 'kubernetes');
  assert.equal(api.tls.rejectUnauthorized, true);
});

test('relative file paths resolve against the kubeconfig directory; insecure-skip-tls-verify and basic auth', () => {
  const fs = files({ '/etc/k/ca.pem': 'CA-FILE', '/abs/cert.pem': 'CERT-FILE', '/etc/k/key.pem': 'KEY-FILE' });
  const api = apiServerFromKubeconfig(doc({ 'client-certificate': '/abs/cert.pem', 'client-key': 'key.pem', username: 'admin', password: 'pw' },
    { server: 'https://api', 'certificate-authority': 'ca.pem', 'insecure-skip-tls-verify': true }), '/etc/k', { fs });
  assert.equal(String(api.tls.ca), 'CA-FILE');
  assert.equal(String(api.tls.cert), 'CERT-FILE');
  assert.equal(String(api.tls.key), 'KEY-FILE');
  assert.equal(api.tls.rejectUnauthorized, false);
  assert.equal(api.authorization(), `Basic ${Buffer.from('admin:pw').toString('base64')}`);
});

test('a token file is read at load and again once a minute has passed', () => {
  const m: Record<string, string> = { '/k/tok': 'one\n' };
  let now = 0;
  const api = apiServerFromKubeconfig(doc({ tokenFile: 'tok' }), '/k', { fs: files(m), now: () => now });
  assert.equal(api.authorization(), 'Bearer one');
  m['/k/tok'] = 'two';
  now = 59_000;
  assert.equal(api.authorization(), 'Bearer one');
  now = 60_000;
  assert.equal(api.authorization(), 'Bearer two');
  delete m['/k/tok'];
  now = 200_000;
  assert.equal(api.authorization(), 'Bearer two', 'a failed re-read keeps the last token');
});

test('in-cluster: service host and port (IPv6 bracketed), the service account CA and a rotating token', () => {
  const m: Record<string, string> = { '/sa/ca.crt': 'SA-CA', '/sa/token': 'sa-1' };
  let now = 0;
  const api = inClusterApiServer({ KUBERNETES_SERVICE_HOST: 'fd00::1', KUBERNETES_SERVICE_PORT: '443' }, { fs: files(m), dir: '/sa', now: () => now });
  assert.equal(api.server, 'https://[fd00::1]:443');
  assert.equal(String(api.tls.ca), 'SA-CA');
  assert.equal(api.authorization(), 'Bearer sa-1');
  m['/sa/token'] = 'sa-2';
  now = 61_000;
  assert.equal(api.authorization(), 'Bearer sa-2');
  assert.equal(inClusterApiServer({ KUBERNETES_SERVICE_HOST: '10.0.0.1', KUBERNETES_SERVICE_PORT: '6443' }, { fs: files(m), dir: '/sa' }).server, 'https://10.0.0.1:6443');
});

test('clear errors: no env in-cluster, missing service account, unknown context, exec plugins, unreadable or non-YAML files', () => {
  assert.throws(() => inClusterApiServer({}, { fs: files({}) }), /KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT must be set/);
  assert.throws(() => inClusterServer({ KUBERNETES_SERVICE_HOST: 'h', KUBERNETES_SERVICE_PORT: '' }), /KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT must be set/);
  assert.throws(() => inClusterApiServer({ KUBERNETES_SERVICE_HOST: 'h', KUBERNETES_SERVICE_PORT: '1' }, { fs: files({}), dir: '/sa' }), /cannot read the service account under \/sa/);
  assert.throws(() => apiServerFromKubeconfig({ ...doc({}), 'current-context': 'zz' }, '/'), /current-context "zz" is not among its contexts/);
  assert.throws(() => apiServerFromKubeconfig(doc({ exec: { command: 'aws' } }), '/'), (err: unknown) => err instanceof KubeconfigError && /uses exec/.test(err.message));
  assert.throws(() => apiServerFromKubeconfig(doc({}, { 'certificate-authority': 'nope.pem', server: 'https://x' }), '/d', { fs: files({}) }), /cannot read certificate-authority \/d\/nope.pem/);
  assert.throws(() => loadKubeconfigFile('/k/config', { fs: files({}) }), /\/k\/config: cannot read/);
  assert.throws(() => loadKubeconfigFile('/k/config', { fs: files({ '/k/config': 'a: [' }) }), /\/k\/config: not YAML/);
});

test('a YAML kubeconfig file, as kubectl writes it', () => {
  const yaml = [
    'apiVersion: v1', 'kind: Config', 'current-context: x',
    'clusters:', '- name: c', '  cluster:', '    server: https://127.0.0.1:6443', '    certificate-authority: ca.crt',
    'users:', '- name: u', '  user:', '    token: abc',
    'contexts:', '- name: x', '  context:', '    cluster: c', '    user: u',
  ].join('\n');
  const api = loadKubeconfigFile('/home/k/config', { fs: files({ '/home/k/config': yaml, '/home/k/ca.crt': 'CA' }) });
  assert.equal(api.server, 'https://127.0.0.1:6443');
  assert.equal(api.authorization(), 'Bearer abc');
  assert.equal(String(api.tls.ca), 'CA');
});
