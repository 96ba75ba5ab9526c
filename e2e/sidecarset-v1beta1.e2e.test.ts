// SidecarSet v1beta1 on the real apiserver with the chart's CRD (spec/openkruise-v1.9.md §1-2): v1alpha1 and v1beta1
// served, v1beta1 stored, conversion Webhook to the webhook's /convert through its Service. The webhook patches the
// CRD's conversion caBundle itself (certs/crd-conversion.ts). Checked: both versions list the same objects, converted
// as §2.2's table says; a v1beta1 SidecarSet injects exactly what its v1alpha1 form does; the controller (reading
// v1beta1) upgrades the pods of a v1beta1 SidecarSet and labels its revisions from spec.customVersion.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { V1ControllerRevision } from '@kubernetes/client-node';
import type { Pod } from '../shared/api/meta.js';
import { resources } from '../shared/kube/resources.js';
import { eventually, getJson, kubectl, kubectlOk, serves, stack, untilInjected } from './harness/kube.js';
import { ensureStandinNode } from './harness/kubelet-standin.js';
import { sidecarImage, SidecarSets, waitUntil } from './harness/sidecarset-fixtures.js';
import { keepNodeReady, StandinKubelet, testRest, unavailable } from './harness/standin-kubelet-loop.js';

const s = stack();
const CRD = 'sidecarsets.apps.kruise.io';
const CV = 'apps.kruise.io/sidecarset-custom-version';
const NS_LABEL = 'kubernetes.io/metadata.name';
const ns = 'e2e-v1beta1';
const node = 'kts-standin-v1beta1';

type Json = Record<string, any>;
interface SidecarSet { apiVersion: string; metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> }; spec: Json }

const container = (name: string, image = 'busybox:1.36') => ({ name, image, command: ['sleep', '999d'], env: [{ name: 'ROLE', value: 'sidecar' }] });
const podOf = (name: string, app: string) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: ns, labels: { app } },
  spec: { nodeName: node, terminationGracePeriodSeconds: 0, containers: [{ name: 'app', image: 'busybox:1.36', command: ['sleep', '999d'] }] } });
const byName = (items: SidecarSet[]) => Object.fromEntries(items.map((i) => [i.metadata.name, i]));
const list = (version: string) => byName(getJson<{ items: SidecarSet[] }>([`sidecarsets.${version}.apps.kruise.io`]).items);

describe('SidecarSet v1beta1 stored, v1alpha1 served, /convert between them (the chart\'s CRD)', { skip: typeof s === 'string' ? s : false, timeout: 600_000 }, () => {
  let ready = false;
  const rest = typeof s === 'string' ? undefined! : testRest();
  const sets = typeof s === 'string' ? undefined! : new SidecarSets(rest, ns, node);
  const names = ['v19-alpha', 'v19-beta', 'v19-beta-label', 'v19-same-a', 'v19-same-b', 'v19-roll'];
  let stopHeartbeats = () => {};

  before(async () => {
    if (typeof s === 'string' || !(await serves(s, '/convert'))) return;
    ensureStandinNode(node);
    stopHeartbeats = keepNodeReady(rest, node);
    kubectlOk(['create', 'namespace', ns]);
    await eventually('the webhook sets its CA on the CRD conversion', () => getJson<Json>(['crd', CRD]).spec.conversion?.webhook?.clientConfig?.caBundle, 150_000);
    ready = true;
  });

  after(() => {
    stopHeartbeats();
    if (!ready) return;
    kubectl(['delete', 'pod', '--all', '-n', ns, '--grace-period=0', '--force', '--wait=false']);
    kubectl(['delete', 'sidecarset', ...names, '--ignore-not-found']);
    kubectl(['delete', 'namespace', ns, '--wait=false']);
  });

  it('the installed CRD: v1alpha1 served, v1beta1 served and stored (storedVersions), conversion Webhook to the chart\'s Service at /convert', (t) => {
    if (!ready) return t.skip('the manager does not serve /convert');
    const crd = getJson<Json>(['crd', CRD]);
    assert.deepEqual(crd.spec.versions.map((v: Json) => [v.name, v.served, v.storage]), [['v1alpha1', true, false], ['v1beta1', true, true]]);
    const { strategy, webhook } = crd.spec.conversion;
    assert.equal(strategy, 'Webhook');
    assert.deepEqual(webhook.conversionReviewVersions, ['v1', 'v1beta1']);
    assert.deepEqual(webhook.clientConfig.service, { namespace: 'kruise-system', name: 'kruise-webhook-service', path: '/convert', port: 443 });
    // Installed with v1beta1 as the storage version, nothing was ever stored as v1alpha1.
    assert.deepEqual(crd.status.storedVersions, ['v1beta1']);
  });

  it('kubectl get sidecarsets.v1beta1 and .v1alpha1 list the same objects, converted as v1.9 converts them', async (t) => {
    if (!ready) return t.skip('the manager does not serve /convert');
    // v1alpha1 with namespace, a namespaceSelector next to it (namespace wins, the selector is dropped) and the label.
    kubectlOk(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'SidecarSet', metadata: { name: 'v19-alpha', labels: { [CV]: 'v1', team: 'a' } },
      spec: { namespace: ns, namespaceSelector: { matchLabels: { env: 'prod' } }, selector: { matchLabels: { app: 'v19-alpha' } }, containers: [container('alpha-sidecar')] } }));
    kubectlOk(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'apps.kruise.io/v1beta1', kind: 'SidecarSet', metadata: { name: 'v19-beta' },
      spec: { customVersion: 'v2', namespaceSelector: { matchLabels: { [NS_LABEL]: ns } }, selector: { matchLabels: { app: 'v19-beta' } }, containers: [container('beta-sidecar')] } }));
    // A v1beta1 object carrying the label and no customVersion: the label stays a label in both versions.
    kubectlOk(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'apps.kruise.io/v1beta1', kind: 'SidecarSet', metadata: { name: 'v19-beta-label', labels: { [CV]: 'v0' } },
      spec: { selector: { matchLabels: { app: 'v19-beta-label' } }, containers: [container('label-sidecar')] } }));

    const beta = list('v1beta1');
    const alpha = list('v1alpha1');
    assert.deepEqual(Object.keys(beta).sort(), Object.keys(alpha).sort());
    for (const name of ['v19-alpha', 'v19-beta', 'v19-beta-label']) assert.ok(beta[name], name);
    for (const [name, b] of Object.entries(beta)) {
      const a = alpha[name]!;
      assert.equal(b.apiVersion, 'apps.kruise.io/v1beta1', name);
      assert.equal(a.apiVersion, 'apps.kruise.io/v1alpha1', name);
      assert.equal(a.spec.namespace, undefined, `${name}: read as v1alpha1, never spec.namespace`);
      assert.equal(b.spec.namespace, undefined, `${name}: v1beta1 has no spec.namespace`);
      assert.deepEqual(a.spec.namespaceSelector, b.spec.namespaceSelector, name);
      assert.deepEqual(a.spec.containers, b.spec.containers, name);
      assert.deepEqual(a.metadata.annotations, b.metadata.annotations, `${name}: annotations (hashes) identical`);
      assert.match(b.metadata.annotations?.['kruise.io/sidecarset-hash'] ?? '', /^[a-z0-9]{64}$/, `${name}: defaulted and hashed by the mutating webhook`);
    }
    // Written as v1alpha1: stored with the metadata.name selector only, customVersion from the label, label gone.
    assert.deepEqual(beta['v19-alpha']!.spec.namespaceSelector, { matchLabels: { [NS_LABEL]: ns } });
    assert.equal(beta['v19-alpha']!.spec.customVersion, 'v1');
    assert.deepEqual(beta['v19-alpha']!.metadata.labels, { team: 'a' });
    assert.deepEqual(alpha['v19-alpha']!.metadata.labels, { team: 'a', [CV]: 'v1' });
    // Written as v1beta1: read as v1alpha1 with the label, customVersion gone.
    assert.equal(alpha['v19-beta']!.metadata.labels?.[CV], 'v2');
    assert.equal(alpha['v19-beta']!.spec.customVersion, undefined);
    assert.equal(beta['v19-beta']!.metadata.labels?.[CV], undefined);
    // The label on a v1beta1 object with no customVersion: kept in both.
    assert.equal(beta['v19-beta-label']!.metadata.labels?.[CV], 'v0');
    assert.equal(beta['v19-beta-label']!.spec.customVersion, undefined);
    assert.equal(alpha['v19-beta-label']!.metadata.labels?.[CV], 'v0');

    // A v1alpha1 edit of the label goes to customVersion; the stored object stays v1beta1-shaped.
    kubectlOk(['label', 'sidecarsets.v1alpha1.apps.kruise.io', 'v19-alpha', `${CV}=v1.1`, '--overwrite']);
    const edited = getJson<SidecarSet>(['sidecarsets.v1beta1.apps.kruise.io', 'v19-alpha']);
    assert.equal(edited.spec.customVersion, 'v1.1');
    assert.equal(edited.metadata.labels?.[CV], undefined);

    // Both SidecarSets, one from each version, inject into the pods of the namespace they name.
    await untilInjected(ns, { app: 'v19-alpha' }, 'alpha-sidecar', 'busybox:1.36', 60_000);
    await untilInjected(ns, { app: 'v19-beta' }, 'beta-sidecar', 'busybox:1.36', 60_000);
    const other = kubectlOk(['create', '--dry-run=server', '-o', 'json', '-f', '-'], JSON.stringify({ ...podOf('elsewhere', 'v19-beta'), metadata: { name: 'elsewhere', namespace: 'default', labels: { app: 'v19-beta' } } }));
    assert.deepEqual((JSON.parse(other) as Pod).spec!.containers.map((c) => c.name), ['app'], 'a pod of another namespace is not injected');
  });

  it('a v1beta1 SidecarSet injects exactly what its v1alpha1 form does: same containers, same hash annotations', async (t) => {
    if (!ready) return t.skip('the manager does not serve /convert');
    const spec = { selector: { matchLabels: { twin: 'x' } }, containers: [container('twin-sidecar')], volumes: [{ name: 'twin-vol', emptyDir: {} }] };
    kubectlOk(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'SidecarSet', metadata: { name: 'v19-same-a', labels: { [CV]: 'same' } },
      spec: { ...spec, namespace: ns, selector: { matchLabels: { app: 'v19-same-a' } } } }));
    kubectlOk(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'apps.kruise.io/v1beta1', kind: 'SidecarSet', metadata: { name: 'v19-same-b' },
      spec: { ...spec, customVersion: 'same', namespaceSelector: { matchLabels: { [NS_LABEL]: ns } }, selector: { matchLabels: { app: 'v19-same-b' } } } }));
    await untilInjected(ns, { app: 'v19-same-a' }, 'twin-sidecar', 'busybox:1.36', 60_000);
    await untilInjected(ns, { app: 'v19-same-b' }, 'twin-sidecar', 'busybox:1.36', 60_000);
    const sa = getJson<SidecarSet>(['sidecarsets.v1beta1.apps.kruise.io', 'v19-same-a']);
    const sb = getJson<SidecarSet>(['sidecarsets.v1beta1.apps.kruise.io', 'v19-same-b']);
    for (const k of ['kruise.io/sidecarset-hash', 'kruise.io/sidecarset-hash-without-image']) assert.equal(sa.metadata.annotations?.[k], sb.metadata.annotations?.[k], k);

    const a = JSON.parse(kubectlOk(['create', '-o', 'json', '-f', '-'], JSON.stringify(podOf('same-a', 'v19-same-a')))) as Pod;
    const b = JSON.parse(kubectlOk(['create', '-o', 'json', '-f', '-'], JSON.stringify(podOf('same-b', 'v19-same-b')))) as Pod;
    // The service-account token volume's name is random per pod (kube-api-access-<5 chars>).
    const sameToken = (p: Pod) => JSON.parse(JSON.stringify(p.spec!.containers).replace(/kube-api-access-[a-z0-9]{5}/g, 'kube-api-access')) as unknown;
    assert.deepEqual(sameToken(a), sameToken(b));
    assert.ok(a.spec!.containers.some((c) => c.name === 'twin-sidecar'));
    assert.deepEqual(a.spec!.volumes?.filter((v) => v.name === 'twin-vol'), b.spec!.volumes?.filter((v) => v.name === 'twin-vol'));
    const hashes = (p: Pod, set: string) => {
      const out: Record<string, unknown> = {};
      for (const k of ['kruise.io/sidecarset-hash', 'kruise.io/sidecarset-hash-without-image']) {
        const { [set]: entry } = JSON.parse(p.metadata!.annotations![k]!) as Record<string, Json>;
        const { updateTimestamp: _t, sidecarSetName: _n, controllerRevision: _r, ...rest } = entry!;
        out[k] = rest;
      }
      return out;
    };
    const ha = hashes(a, 'v19-same-a');
    assert.deepEqual(hashes(b, 'v19-same-b'), ha);
    assert.equal((ha['kruise.io/sidecarset-hash'] as Json).hash, sa.metadata.annotations?.['kruise.io/sidecarset-hash']);
  });

  it('the controller upgrades the pods of a v1beta1 SidecarSet in place, its revisions labelled from spec.customVersion', async (t) => {
    if (!ready) return t.skip('the manager does not serve /convert');
    await rest.create(resources.sidecarSets, {
      apiVersion: 'apps.kruise.io/v1beta1', kind: 'SidecarSet', metadata: { name: 'v19-roll' },
      spec: { customVersion: 'r1', namespaceSelector: { matchLabels: { [NS_LABEL]: ns } }, selector: { matchLabels: { app: 'v19-roll' } },
        updateStrategy: { maxUnavailable: 2 }, containers: [{ name: 'sidecar', image: 'busybox:1.35.0', command: ['sleep', '1d'] }] },
    });
    await sets.injects({ app: 'v19-roll' }, 'sidecar', 'busybox:1.35.0');
    await sets.pods('roll', 2, { app: 'v19-roll' });
    const k = new StandinKubelet(rest, ns, node);
    const ofApp = (pods: Pod[]) => pods.filter((p) => p.metadata?.labels?.app === 'v19-roll');
    await k.until((pods) => ofApp(pods).length === 2 && unavailable(ofApp(pods)).length === 0, { what: 'pods started' });
    await sets.status('v19-roll', { matchedPods: 2, readyPods: 2, updatedPods: 2 });

    await rest.patch(resources.sidecarSets, { name: 'v19-roll' }, 'merge', { spec: { customVersion: 'r2', containers: [{ name: 'sidecar', image: 'busybox:1.36.0', command: ['sleep', '1d'] }] } });
    await k.until((pods) => ofApp(pods).length === 2 && ofApp(pods).every((p) => sidecarImage(p) === 'busybox:1.36.0') && unavailable(ofApp(pods)).length === 0, { what: 'pods upgraded' });
    const done = await sets.status('v19-roll', { matchedPods: 2, updatedPods: 2, updatedReadyPods: 2 });

    const revisions = (await rest.list<V1ControllerRevision>(resources.controllerRevisions, { namespace: 'kruise-system', labelSelector: 'kruise.io/sidecarset-name=v19-roll' })).items;
    const latest = await waitUntil('the latest revision labelled r2', async () => {
      const r = (await rest.list<V1ControllerRevision>(resources.controllerRevisions, { namespace: 'kruise-system', labelSelector: 'kruise.io/sidecarset-name=v19-roll' })).items
        .find((x) => x.metadata?.name === done.status?.latestRevision);
      return r?.metadata?.labels?.[CV] === 'r2' && r;
    });
    assert.equal((latest.data as { spec: { containers: { image: string }[] } }).spec.containers[0]!.image, 'busybox:1.36.0');
    assert.ok(revisions.some((r) => r.metadata?.labels?.[CV] === 'r1'), 'the first revision keeps r1');
    for (const r of revisions) assert.deepEqual(r.metadata?.ownerReferences?.map((o) => [o.apiVersion, o.kind, o.name]), [['apps.kruise.io/v1beta1', 'SidecarSet', 'v19-roll']]);
    sets.forceDeletePods('roll-0', 'roll-1');
  });
});
