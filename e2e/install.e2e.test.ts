// kruise-ts installs (the harness's `helm install` of charts/kruise-ts, which manifests/ is rendered from) and its CRDs
// accept the seed examples, checked against a real apiserver.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { load, loadAll, dump } from 'js-yaml';
import { kubectl, kubectlOk, stack } from './harness/kube.js';

const s = stack();
const skip = typeof s === 'string' ? s : false;
const repo = join(import.meta.dirname, '..');
const examples = join(repo, 'e2e/cluster/examples');

describe('install', { skip }, () => {
  // e2e/cluster.sh installed the stack with `helm install` (it fails the run if that fails); e2e/helm-upgrade applies
  // manifests/ with kubectl and takes it over with Helm.
  it('the install made the seven CRDs, Established, and both webhook configurations', () => {
    const crds = kubectlOk(['get', 'crd', '-o', 'jsonpath={range .items[*]}{.metadata.name}={.status.conditions[?(@.type=="Established")].status}{"\\n"}{end}']);
    for (const p of ['sidecarsets', 'containerrecreaterequests', 'nodeimages', 'imagepulljobs', 'imagelistpulljobs', 'resourcedistributions', 'clonesets']) {
      assert.match(crds, new RegExp(`^${p}\\.apps\\.kruise\\.io=True$`, 'm'));
    }
    kubectlOk(['get', 'mutatingwebhookconfiguration', 'kruise-mutating-webhook-configuration']);
    kubectlOk(['get', 'validatingwebhookconfiguration', 'kruise-validating-webhook-configuration']);
    for (const ns of ['kruise-system', 'kruise-daemon', 'kruise-daemon-config']) {
      assert.match(kubectlOk(['get', 'namespace', ns, '--show-labels']), /control-plane=openkruise/, ns);
    }
  });

  // The live webhook configurations belong to the release (caBundle written by the manager), so the overlay's are
  // dry-run as new objects under another name while the rest is dry-run applied.
  it('the cert-manager overlay is accepted by the apiserver (server dry-run), except the cert-manager kinds it does not serve', () => {
    const docs = loadAll(kubectlOk(['kustomize', join(repo, 'manifests/overlays/cert-manager')])) as { apiVersion: string; kind: string; metadata: { name: string } }[];
    assert.deepEqual(docs.filter((d) => d.apiVersion.startsWith('cert-manager.io/')).map((d) => `${d.kind}/${d.metadata.name}`).sort(),
      ['Certificate/kruise-webhook-ca', 'Certificate/kruise-webhook-cert', 'Issuer/kruise-selfsigned-issuer', 'Issuer/kruise-webhook-ca-issuer']);
    const ours = docs.filter((d) => !d.apiVersion.startsWith('cert-manager.io/'));
    const isWebhookConf = (d: { kind: string }) => d.kind.endsWith('WebhookConfiguration');
    const yaml = (ds: object[]) => ds.map((d) => `---\n${dump(d)}`).join('');
    kubectlOk(['apply', '--dry-run=server', '-f', '-'], yaml(ours.filter((d) => !isWebhookConf(d))));
    const confs = ours.filter(isWebhookConf).map((d) => ({ ...d, metadata: { ...d.metadata, name: `${d.metadata.name}-dry-run` } }));
    assert.equal(confs.length, 2);
    const out = kubectlOk(['create', '--dry-run=server', '-f', '-'], yaml(confs));
    assert.match(out, /kruise-mutating-webhook-configuration-dry-run created \(server dry run\)/);
  });

  // Dry-run still calls the webhooks, which may refuse an example for its context (a CRR's pod does not exist):
  // only the CRD schema is judged here, so a webhook denial counts as accepted by the schema.
  it('every apps.kruise.io object in the seed examples passes the CRD schema on server-side dry-run', () => {
    for (const f of readdirSync(examples).filter((n) => n.endsWith('.yaml')).sort()) {
      const kruise = (loadAll(readFileSync(join(examples, f), 'utf8')) as ({ apiVersion?: string } | null)[])
        .filter((d) => d?.apiVersion === 'apps.kruise.io/v1alpha1');
      for (const d of kruise) {
        const r = kubectl(['create', '--dry-run=server', '-f', '-'], dump(d));
        assert.ok(r.code === 0 || /admission webhook .* denied/.test(r.stderr), `${f}: ${r.stderr}`);
        assert.doesNotMatch(r.stderr, /in body|unknown field|ValidationError/, f);
      }
    }
  });

  // Upstream's CRD has no enum here (issue 15 item 6): the webhook judges the value, with OpenKruise's message.
  it('a SidecarSet with an unknown podInjectPolicy is rejected by the webhook', () => {
    const bad = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'SidecarSet', metadata: { name: 'malformed' },
      spec: { selector: { matchLabels: { app: 'x' } }, containers: [{ name: 's', image: 'busybox', podInjectPolicy: 'Sideways' }] } };
    const r = kubectl(['create', '--dry-run=server', '-f', '-'], JSON.stringify(bad));
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /admission webhook "[^"]+" denied the request/);
    assert.match(r.stderr, /podInjectPolicy: Invalid value: "Sideways": unsupported pod inject policy/);
  });

  it('kubectl get sidecarset prints the MATCHED, UPDATED and READY columns', () => {
    const d = load(readFileSync(join(examples, '04-sidecarset-update-strategy.yaml'), 'utf8')) as { metadata: { name: string } };
    assert.equal(d.metadata.name, 'sidecarset-strategy');
    kubectlOk(['apply', '-f', join(examples, '04-sidecarset-update-strategy.yaml')]);
    try {
      const header = kubectlOk(['get', 'sidecarset', d.metadata.name]).split('\n')[0] ?? '';
      assert.deepEqual(header.trim().split(/\s+/), ['NAME', 'MATCHED', 'UPDATED', 'READY', 'AGE']);
    } finally {
      kubectl(['delete', 'sidecarset', d.metadata.name, '--wait=false']);
    }
  });
});
