// SidecarSet v1beta1 on the real apiserver (spec/openkruise-v1.9.md §1-2): the test serves the CRD as OpenKruise v1.9
// does (v1alpha1 and v1beta1, v1beta1 stored, conversion Webhook) from a copy of the chart's CRD made here, and checks
// that the webhook patches the CRD's conversion clientConfig itself (certs/crd-conversion.ts), that
// `kubectl get sidecarsets.v1beta1…` and `.v1alpha1…` list the same objects converted by /convert, and that a v1beta1
// SidecarSet is admitted and injected. The CRD is put back afterwards, with every SidecarSet re-stored as v1alpha1.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { load } from 'js-yaml';
import { eventually, getJson, kubectl, kubectlOk, serves, stack, untilInjected } from './harness/kube.js';

const s = stack();
const CRD = 'sidecarsets.apps.kruise.io';
const CV = 'apps.kruise.io/sidecarset-custom-version';
const NS = 'kubernetes.io/metadata.name';
const crdFile = join(import.meta.dirname, '../charts/kruise-ts/files/crds/apps.kruise.io_sidecarsets.yaml');

type Json = Record<string, any>;
interface SidecarSet { apiVersion: string; metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> }; spec: Json }

/** The chart's CRD with a v1beta1 version as v1.9 has it (no spec.namespace, spec.customVersion), stored, converted by webhook. */
function v19Crd(): Json {
  const crd = load(readFileSync(crdFile, 'utf8')) as Json;
  const alpha = crd.spec.versions.find((v: Json) => v.name === 'v1alpha1');
  const beta = structuredClone(alpha);
  beta.name = 'v1beta1';
  const props = beta.schema.openAPIV3Schema.properties.spec.properties;
  delete props.namespace;
  props.customVersion = { type: 'string' };
  alpha.storage = false;
  beta.storage = true;
  crd.spec.versions = [alpha, beta];
  // A placeholder the webhook must replace with its own URL and CA (certs/crd-conversion.ts) before anything converts.
  crd.spec.conversion = { strategy: 'Webhook', webhook: { conversionReviewVersions: ['v1', 'v1beta1'], clientConfig: { url: 'https://127.0.0.1:1/convert' } } };
  return crd;
}

const replaceCrd = (crd: Json) => {
  const live = getJson<Json>(['crd', CRD]);
  kubectlOk(['replace', '-f', '-'], JSON.stringify({ ...crd, metadata: { ...crd.metadata, resourceVersion: live.metadata.resourceVersion } }));
};

const container = (name: string) => ({ name, image: 'busybox:1.36', command: ['sleep', '999d'] });
const alphaSet = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'SidecarSet', metadata: { name: 'v19-alpha', labels: { [CV]: 'v1' } },
  spec: { namespace: 'default', selector: { matchLabels: { app: 'v19' } }, containers: [container('alpha-sidecar')] } };
const betaSet = { apiVersion: 'apps.kruise.io/v1beta1', kind: 'SidecarSet', metadata: { name: 'v19-beta' },
  spec: { customVersion: 'v2', namespaceSelector: { matchLabels: { [NS]: 'default' } }, selector: { matchLabels: { app: 'v19' } }, containers: [container('beta-sidecar')] } };

describe('SidecarSet v1beta1 with the /convert conversion webhook', { skip: typeof s === 'string' ? s : false }, () => {
  let ready = false;
  let original: Json | undefined;

  before(async () => {
    if (typeof s === 'string' || !(await serves(s, '/convert'))) return;
    original = load(readFileSync(crdFile, 'utf8')) as Json;
    replaceCrd(v19Crd());
    await eventually('the webhook sets its URL and CA on the CRD conversion', () => {
      const cc = getJson<Json>(['crd', CRD]).spec.conversion?.webhook?.clientConfig;
      // Installed as pods (the usual stack) the webhook keeps the Service reference; a host-process webhook its URL.
      return cc?.caBundle && (s.manager ? cc.url === `https://127.0.0.1:${s.manager.webhookPort}/convert`
        : cc.service?.name === 'kruise-webhook-service' && cc.service?.namespace === 'kruise-system' && cc.service?.path === '/convert');
    }, 150_000);
    // Served versions settle in discovery a moment after the update.
    await eventually('v1beta1 served', () => kubectl(['get', 'sidecarsets.v1beta1.apps.kruise.io']).code === 0, 30_000);
    ready = true;
  });

  after(async () => {
    kubectl(['delete', 'pod', 'v19-pod', '--ignore-not-found', '--grace-period=0', '--force']);
    kubectl(['delete', 'sidecarset', 'v19-alpha', 'v19-beta', '--ignore-not-found']);
    if (!original) return;
    // Storage migration back, as the apiserver requires before a version leaves the CRD: v1alpha1 stored again, every
    // SidecarSet rewritten into it, then v1beta1 dropped from storedVersions and the original CRD put back.
    const back = v19Crd();
    back.spec.versions[0].storage = true;
    back.spec.versions[1].storage = false;
    back.spec.conversion = getJson<Json>(['crd', CRD]).spec.conversion;
    replaceCrd(back);
    const all = getJson<{ items: Json[] }>(['sidecarsets.v1alpha1.apps.kruise.io']).items;
    for (const item of all) kubectlOk(['replace', '-f', '-'], JSON.stringify(item));
    kubectlOk(['patch', 'crd', CRD, '--subresource=status', '--type=merge', '-p', JSON.stringify({ status: { storedVersions: ['v1alpha1'] } })]);
    replaceCrd(original);
  });

  it('kubectl get sidecarsets.v1beta1 and .v1alpha1 list the same objects, each converted as v1.9 converts it', async (t) => {
    if (!ready) return t.skip('the manager does not serve /convert');
    kubectlOk(['apply', '-f', '-'], JSON.stringify(alphaSet));
    kubectlOk(['apply', '-f', '-'], JSON.stringify(betaSet));
    const byName = (items: SidecarSet[]) => Object.fromEntries(items.map((i) => [i.metadata.name, i]));
    const beta = byName(getJson<{ items: SidecarSet[] }>(['sidecarsets.v1beta1.apps.kruise.io']).items);
    const alpha = byName(getJson<{ items: SidecarSet[] }>(['sidecarsets.v1alpha1.apps.kruise.io']).items);
    assert.deepEqual(Object.keys(beta).sort(), Object.keys(alpha).sort());
    assert.ok(beta['v19-alpha'] && beta['v19-beta']);
    for (const [name, b] of Object.entries(beta)) {
      assert.equal(b.apiVersion, 'apps.kruise.io/v1beta1', name);
      assert.equal(alpha[name]!.apiVersion, 'apps.kruise.io/v1alpha1', name);
      assert.equal(alpha[name]!.spec.namespace, undefined, `${name}: v1alpha1 read back never has spec.namespace`);
      assert.deepEqual(alpha[name]!.spec.containers, b.spec.containers, name);
      assert.deepEqual(alpha[name]!.metadata.annotations?.['kruise.io/sidecarset-hash'], b.metadata.annotations?.['kruise.io/sidecarset-hash'], name);
    }
    // Written as v1alpha1 with namespace and the label: stored with the metadata.name selector and customVersion.
    assert.deepEqual(beta['v19-alpha']!.spec.namespaceSelector, { matchLabels: { [NS]: 'default' } });
    assert.equal(beta['v19-alpha']!.spec.customVersion, 'v1');
    assert.equal(beta['v19-alpha']!.metadata.labels?.[CV], undefined);
    assert.equal(alpha['v19-alpha']!.metadata.labels?.[CV], 'v1');
    // Written as v1beta1: read as v1alpha1 with the label.
    assert.equal(alpha['v19-beta']!.metadata.labels?.[CV], 'v2');
    // Both were defaulted and hashed by the mutating webhook (v1.9 path, either version).
    for (const name of ['v19-alpha', 'v19-beta']) assert.match(beta[name]!.metadata.annotations?.['kruise.io/sidecarset-hash'] ?? '', /^[a-z0-9]{64}$/, name);
  });

  it('a pod matching both is injected with the v1beta1 SidecarSet\'s sidecar as with the v1alpha1 one\'s', async (t) => {
    if (!ready) return t.skip('the manager does not serve /convert');
    await untilInjected('default', { app: 'v19' }, 'beta-sidecar', 'busybox:1.36', 60_000);
    await untilInjected('default', { app: 'v19' }, 'alpha-sidecar', 'busybox:1.36', 60_000);
    kubectlOk(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'v19-pod', namespace: 'default', labels: { app: 'v19' } },
      spec: { containers: [{ name: 'app', image: 'busybox:1.36', command: ['sleep', '999d'] }] } }));
    const pod = getJson<Json>(['pod', 'v19-pod', '-n', 'default']);
    assert.deepEqual(pod.spec.containers.map((c: Json) => c.name).sort(), ['alpha-sidecar', 'app', 'beta-sidecar']);
    assert.deepEqual(pod.metadata.annotations['kruise.io/sidecarset-injected-list'].split(',').sort(), ['v19-alpha', 'v19-beta']);
  });

  it('a SidecarSet refused at the v1beta1 endpoint gets the validating webhook\'s message', async (t) => {
    if (!ready) return t.skip('the manager does not serve /convert');
    const twin = { ...betaSet, metadata: { name: 'v19-twin' } };
    const r = kubectl(['apply', '-f', '-'], JSON.stringify(twin));
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /admission webhook "vsidecarset\.kb\.io" denied the request/);
    assert.match(r.stderr, /beta-sidecar/);
  });
});
