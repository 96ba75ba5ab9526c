// The cert-manager overlay, checked with real cert-manager v1.11.5 (controller and cainjector built from its Go
// module): the Certificate is issued, the CA is injected into both webhook configurations, and the kruise-ts
// manager serves with the issued certificate in WEBHOOK_CERT_WRITER=external mode.
//
// It runs in a control plane of its own (same harness as the shared one): the shared stack's manager keeps
// the webhook configurations' caBundle and url in `secret` mode, and the overlay plus the cainjector would
// rewrite both under the other e2e files running at the same time.
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { connect } from 'node:tls';
import { after, before, describe, it } from 'node:test';
import { certManagerBinDir, certManagerCrds, startCertManager, type CertManager } from './harness/cert-manager.js';
import { binDir, kubectl, startCluster, type Cluster } from './harness/cluster/cluster.js';
import { managerArgs } from './harness/cluster/manager-command.js';
import { eventually, stack } from './harness/kube.js';
import { freePort, spawnDaemon, waitFor, type Daemon } from './harness/runtime/process.js';

const s = stack();
const skip = typeof s === 'string' ? s : false;
const repo = join(import.meta.dirname, '..');
const NS = 'kruise-system';
const HOST = 'kruise-webhook-service.kruise-system.svc';
const CONFIGS = [['mutatingwebhookconfiguration', 'kruise-mutating-webhook-configuration'],
  ['validatingwebhookconfiguration', 'kruise-validating-webhook-configuration']] as const;

type Secret = { data?: Record<string, string> };
type WebhookConfig = { metadata: { annotations?: Record<string, string> }; webhooks: { name: string; clientConfig: { caBundle?: string } }[] };
const fingerprint = (pem: string) => new X509Certificate(pem).fingerprint256;

describe('cert-manager overlay with cert-manager v1.11.5', { skip, timeout: 900_000 }, () => {
  let cluster: Cluster | undefined;
  let cm: CertManager | undefined;
  let manager: Daemon | undefined;
  let dir = '';
  let webhookPortInUse = 0;
  const kc = (args: string[], input?: string) => kubectl((cluster as Cluster).kubeconfig, args, input);
  const secretFiles = () => {
    const data = (JSON.parse(kc(['get', 'secret', 'kruise-webhook-certs', '-n', NS, '-o', 'json'])) as Secret).data ?? {};
    return Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Buffer.from(v, 'base64').toString('utf8')]));
  };

  before(async () => {
    const cmBin = certManagerBinDir(repo);
    dir = join(repo, 'e2e/.run', `cert-manager-${new Date().toISOString().replace(/[:.]/g, '-')}-${process.pid}`);
    mkdirSync(dir, { recursive: true });
    cluster = await startCluster({ dir, bin: binDir(repo), fakeNodes: 1 });
    kc(['apply', '-f', '-'], certManagerCrds(repo));
    kc(['wait', '--for=condition=Established', 'crd', '--all', '--timeout=60s']);
    // The Certificate and Issuer need their CRDs Established first; the overlay's kruise CRDs come with it.
    kc(['create', 'namespace', NS]);
    cm = await startCertManager({ bin: cmBin, kubeconfig: cluster.kubeconfig, logDir: cluster.logDir, clusterResourceNamespace: NS });
    await eventually('kubectl apply -k manifests/overlays/cert-manager', () =>
      kc(['apply', '-k', join(repo, 'manifests/overlays/cert-manager')]) !== undefined, 60_000);
  }, { timeout: 900_000 });

  after(async () => {
    await manager?.stop();
    await cm?.stop();
    await cluster?.stop();
    if (dir && process.env.KRUISE_TS_KEEP_LOGS !== '1') rmSync(dir, { recursive: true, force: true });
  });

  it('the Certificate becomes Ready and its Secret holds tls.crt, tls.key and ca.crt for the webhook Service', async () => {
    await eventually('Certificate Ready', () => kc(['get', 'certificate', 'kruise-webhook-cert', '-n', NS,
      '-o', 'jsonpath={.status.conditions[?(@.type=="Ready")].status}']) === 'True', 120_000);
    const files = secretFiles();
    assert.deepEqual(['ca.crt', 'tls.crt', 'tls.key'].filter((k) => !files[k]), []);
    const cert = new X509Certificate(files['tls.crt'] as string);
    assert.equal(cert.checkHost(HOST), HOST);
    assert.match(files['tls.key'] as string, /^-----BEGIN RSA PRIVATE KEY-----/);
  });

  it('the cainjector writes the Secret\'s ca.crt into every webhook of both kruise webhook configurations', async () => {
    const ca = secretFiles()['ca.crt'] as string;
    for (const [kind, name] of CONFIGS) {
      const conf = await eventually(`${name} caBundle`, () => {
        const c = JSON.parse(kc(['get', kind, name, '-o', 'json'])) as WebhookConfig;
        return c.webhooks.every((w) => w.clientConfig.caBundle) && c;
      }, 120_000);
      assert.equal(conf.metadata.annotations?.['cert-manager.io/inject-ca-from'], `${NS}/kruise-webhook-cert`);
      for (const w of conf.webhooks) {
        assert.equal(fingerprint(Buffer.from(w.clientConfig.caBundle as string, 'base64').toString('utf8')), fingerprint(ca), `${name}/${w.name}`);
      }
    }
  });

  it('the kruise-ts manager in external mode serves the issued certificate, verified against ca.crt', async () => {
    const files = secretFiles();
    const certDir = join(dir, 'webhook-certs');
    mkdirSync(certDir, { recursive: true, mode: 0o700 });
    for (const [k, v] of Object.entries(files)) writeFileSync(join(certDir, k), v, { mode: 0o600 });
    const args = await managerArgs(repo, 'webhook');
    const [webhookPort, healthPort] = [await freePort(), await freePort()];
    manager = spawnDaemon('kruise-manager', process.execPath, args,
      join((cluster as Cluster).logDir, 'kruise-manager.log'), {
        ...process.env, KUBECONFIG: (cluster as Cluster).kubeconfig, POD_NAMESPACE: NS,
        WEBHOOK_CERT_WRITER: 'external', WEBHOOK_CERT_DIR: certDir, WEBHOOK_PORT: String(webhookPort),
        BIND_ADDRESS: '127.0.0.1', HEALTH_PORT: String(healthPort),
      });
    const m = manager;
    await waitFor('kruise-manager /readyz', async () => (await fetch(`http://127.0.0.1:${healthPort}/readyz`)).ok, 90_000,
      () => m.child.exitCode === null).catch((err: Error) => { throw new Error(`${err.message}\n${m.tail(20)}`); });
    assert.equal(await servedCert(webhookPort, files['ca.crt'] as string), fingerprint(files['tls.crt'] as string));
    webhookPortInUse = webhookPort;
  });

  it('a re-issued certificate reaches both caBundles and, once its files change, the running manager serves it', async () => {
    const before = secretFiles();
    // Deleting the Secret makes cert-manager issue afresh: a new key and, with a self-signed issuer, a new CA.
    kc(['delete', 'secret', 'kruise-webhook-certs', '-n', NS]);
    const files = await eventually('re-issued Secret', () => {
      const f = secretFiles();
      return f['tls.crt'] && f['tls.key'] && f['ca.crt'] && f['tls.crt'] !== before['tls.crt'] ? f : undefined;
    }, 120_000);
    await eventually('caBundles follow the new CA', () => CONFIGS.every(([kind, name]) =>
      (JSON.parse(kc(['get', kind, name, '-o', 'json'])) as WebhookConfig).webhooks.every((w) =>
        fingerprint(Buffer.from(w.clientConfig.caBundle ?? '', 'base64').toString('utf8')) === fingerprint(files['ca.crt'] as string))), 120_000);
    // What the kubelet does for a mounted Secret, minus the symlink swap: the manager polls the directory.
    for (const [k, v] of Object.entries(files)) {
      writeFileSync(join(dir, 'webhook-certs', `.${k}`), v, { mode: 0o600 });
      renameSync(join(dir, 'webhook-certs', `.${k}`), join(dir, 'webhook-certs', k));
    }
    await waitFor('manager serves the re-issued certificate', async () =>
      await servedCert(webhookPortInUse, files['ca.crt'] as string) === fingerprint(files['tls.crt'] as string), 45_000);
  });
});

/** The SHA-256 fingerprint of the certificate served on 127.0.0.1:port, after verifying it against `ca` for HOST. */
function servedCert(port: number, ca: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const sock = connect({ host: '127.0.0.1', port, servername: HOST, ca }, () => {
      const raw = sock.getPeerCertificate().raw;
      sock.end();
      resolve(new X509Certificate(raw).fingerprint256);
    });
    sock.once('error', reject);
  });
}
