// The cert-manager overlay, checked with real cert-manager v1.11.5 (controller and cainjector built from its Go
// module): the CA bootstrap chain (selfSigned Issuer → CA Certificate → CA Issuer → serving Certificate) is issued,
// the CA is injected into both webhook configurations, the kruise-ts manager serves with the issued certificate in
// WEBHOOK_CERT_WRITER=external mode, and a forced renewal of the serving certificate fails no admission: dry-run pod
// creates go through the real apiserver to the manager the whole time.
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
import { makeKube } from '../shared/kube/client.js';
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
type WebhookConfig = { metadata: { annotations?: Record<string, string> }; webhooks: { name: string; clientConfig: { caBundle?: string; url?: string; service?: { path?: string } } }[] };
const fingerprint = (pem: string) => new X509Certificate(pem).fingerprint256;

describe('cert-manager overlay with cert-manager v1.11.5', { skip, timeout: 900_000 }, () => {
  let cluster: Cluster | undefined;
  let cm: CertManager | undefined;
  let manager: Daemon | undefined;
  let dir = '';
  let webhookPortInUse = 0;
  const kc = (args: string[], input?: string) => kubectl((cluster as Cluster).kubeconfig, args, input);
  const caSecretCert = () => Buffer.from((JSON.parse(kc(['get', 'secret', 'kruise-webhook-ca', '-n', NS, '-o', 'json'])) as Secret).data?.['tls.crt'] ?? '', 'base64').toString('utf8');
  const caBundles = () => CONFIGS.flatMap(([kind, name]) => (JSON.parse(kc(['get', kind, name, '-o', 'json'])) as WebhookConfig).webhooks
    .map((w) => Buffer.from(w.clientConfig.caBundle ?? '', 'base64').toString('utf8')));
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
    // This control plane has no node and no kube-proxy: the apiserver reaches the manager at https://127.0.0.1:PORT (set on the
    // webhook configurations below), so the serving certificate must name 127.0.0.1 too. Test-only, not in the overlay.
    kc(['patch', 'certificate', 'kruise-webhook-cert', '-n', NS, '--type', 'merge', '-p', JSON.stringify({ spec: { ipAddresses: ['127.0.0.1'] } })]);
  }, { timeout: 900_000 });

  after(async () => {
    await manager?.stop();
    await cm?.stop();
    await cluster?.stop();
    if (dir && process.env.KRUISE_TS_KEEP_LOGS !== '1') rmSync(dir, { recursive: true, force: true });
  });

  it('the serving Certificate becomes Ready, issued by the CA Certificate: its Secret holds tls.crt, tls.key and the CA as ca.crt, and no CA key', async () => {
    for (const name of ['kruise-webhook-ca', 'kruise-webhook-cert']) {
      await eventually(`Certificate ${name} Ready`, () => kc(['get', 'certificate', name, '-n', NS,
        '-o', 'jsonpath={.status.conditions[?(@.type=="Ready")].status}']) === 'True', 120_000);
    }
    const files = await eventually('serving Secret names 127.0.0.1', () => {
      const f = secretFiles();
      return f['tls.crt'] && new X509Certificate(f['tls.crt']).checkIP('127.0.0.1') ? f : undefined;
    }, 120_000);
    assert.deepEqual(Object.keys(files).sort(), ['ca.crt', 'tls.crt', 'tls.key']);
    const cert = new X509Certificate(files['tls.crt'] as string);
    const ca = new X509Certificate(files['ca.crt'] as string);
    assert.equal(cert.checkHost(HOST), HOST);
    assert.equal(ca.ca, true, 'ca.crt is the CA, not the leaf');
    assert.notEqual(ca.fingerprint256, cert.fingerprint256);
    assert.ok(cert.verify(ca.publicKey), 'the leaf is signed by the CA');
    assert.equal(ca.fingerprint256, fingerprint(caSecretCert()), 'the CA is the CA Certificate\'s');
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
        // Called by URL, not through a Service: nothing to drain on stop (webhook/drain.ts).
        WEBHOOK_DRAIN_SECONDS: '0',
      });
    const m = manager;
    await waitFor('kruise-manager /readyz', async () => (await fetch(`http://127.0.0.1:${healthPort}/readyz`)).ok, 90_000,
      () => m.child.exitCode === null).catch((err: Error) => { throw new Error(`${err.message}\n${m.tail(20)}`); });
    assert.equal(await servedCert(webhookPort, files['ca.crt'] as string), fingerprint(files['tls.crt'] as string));
    webhookPortInUse = webhookPort;
    // Point the webhooks at the manager (the cainjector keeps owning caBundle) and see a pod create admitted by it.
    for (const [kind, name] of CONFIGS) {
      const conf = JSON.parse(kc(['get', kind, name, '-o', 'json'])) as WebhookConfig;
      const ops = conf.webhooks.flatMap((w, i) => [
        { op: 'remove', path: `/webhooks/${i}/clientConfig/service` },
        { op: 'add', path: `/webhooks/${i}/clientConfig/url`, value: `https://127.0.0.1:${webhookPort}${w.clientConfig.service?.path ?? ''}` },
      ]);
      kc(['patch', kind, name, '--type', 'json', '-p', JSON.stringify(ops)]);
    }
    await eventually('a dry-run pod create admitted through the manager', () => dryRunPod(cluster as Cluster) === 'ok', 60_000);
  });

  it('a forced renewal of the serving certificate fails no admission: the CA and caBundle stay, the manager switches to the new leaf', async () => {
    const before = secretFiles();
    const kube = makeKube({ kubeconfig: (cluster as Cluster).kubeconfig });
    // Two workers of dry-run pod creates through the real apiserver (mutating pod webhook, failurePolicy Fail).
    let ok = 0;
    const failures: string[] = [];
    let stop = false;
    const worker = async () => {
      for (let i = 0; !stop; i++) {
        try {
          await kube.core.createNamespacedPod({ namespace: 'default', dryRun: 'All', body: { metadata: { name: `renewal-probe-${i}` }, spec: { containers: [{ name: 'app', image: 'nginx:1.7.9' }] } } });
          ok++;
        } catch (err) {
          // The apiserver's reason (e.g. x509: certificate signed by unknown authority) is at the end of the body.
          const text = err instanceof Error ? err.message : String(err);
          failures.push(text.length > 400 ? `${text.slice(0, 150)} … ${text.slice(-250)}` : text);
        }
      }
    };
    /** Lets `n` more creates be admitted (or stops at the first failure, which the final assertion reports). */
    const admitted = async (n: number) => {
      const base = ok;
      await waitFor(`${n} more admissions`, async () => failures.length > 0 || ok >= base + n, 120_000);
    };
    const workers = [worker(), worker()];
    try {
      await admitted(10);
      // What `cmctl renew` does: the Issuing condition makes cert-manager re-issue now.
      kc(['patch', 'certificate', 'kruise-webhook-cert', '-n', NS, '--subresource', 'status', '--type', 'json', '-p', JSON.stringify([
        { op: 'add', path: '/status/conditions/-', value: { type: 'Issuing', status: 'True', reason: 'ManuallyTriggered', message: 'e2e forced renewal', lastTransitionTime: new Date().toISOString().replace(/\.\d+Z$/, 'Z') } }])]);
      const files = await eventually('re-issued Secret', () => {
        const f = secretFiles();
        return f['tls.crt'] && f['tls.key'] && f['ca.crt'] && f['tls.crt'] !== before['tls.crt'] ? f : undefined;
      }, 120_000);
      assert.equal(fingerprint(files['ca.crt'] as string), fingerprint(before['ca.crt'] as string), 'the CA is unchanged by a leaf renewal');
      // The window a kubelet leaves (about a minute) between the Secret changing and the pod's files following:
      // the cainjector has had its chance to rewrite caBundle, and admissions keep flowing to the old leaf.
      await admitted(20);
      assert.ok(caBundles().every((b) => fingerprint(b) === fingerprint(before['ca.crt'] as string)), 'caBundle still the CA');
      // What the kubelet does for a mounted Secret, minus the symlink swap: the manager polls the directory.
      for (const [k, v] of Object.entries(files)) {
        writeFileSync(join(dir, 'webhook-certs', `.${k}`), v, { mode: 0o600 });
        renameSync(join(dir, 'webhook-certs', `.${k}`), join(dir, 'webhook-certs', k));
      }
      await waitFor('manager serves the re-issued certificate', async () =>
        await servedCert(webhookPortInUse, files['ca.crt'] as string) === fingerprint(files['tls.crt'] as string), 45_000);
      await admitted(20);
    } finally {
      stop = true;
      await Promise.all(workers);
    }
    assert.deepEqual(failures.slice(0, 3), [], `${failures.length} of ${ok + failures.length} admissions failed`);
    assert.ok(ok >= 50);
  });
});

/** 'ok' when a server-side dry-run create of a pod in `default` is admitted, else kubectl's error. */
function dryRunPod(cluster: Cluster): string {
  const pod = JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'webhook-probe', namespace: 'default' }, spec: { containers: [{ name: 'app', image: 'nginx:1.7.9' }] } });
  try {
    kubectl(cluster.kubeconfig, ['create', '--dry-run=server', '-f', '-'], pod);
    return 'ok';
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

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
