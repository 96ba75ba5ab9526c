// The hand-written OpenKruise state of e2e/takeover.e2e.test.ts says what v1.8.4 and v1.9.0 store
// (spec/openkruise-v1.9.md §1, §2, §5; spec/webhooks.md §1.5, §2.9; spec/daemon-and-controllers.md §6.8).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SidecarSetCustomVersionLabel, SidecarSetHashAnnotation, SidecarSetHashWithoutImageAnnotation, type SidecarSet } from '../../shared/api/sidecarset.js';
import { sidecarSetToV1alpha1, sidecarSetToV1beta1 } from '../../shared/domain/conversion/sidecarset.js';
import { sidecarSetHash } from '../../shared/domain/sidecarset-hash.js';
import { PLURALS, v18Crd, v19Crd } from './takeover-crds.js';
import { controllerRevision, injectedPod, nodeImage, SET_KINDS, setName, sidecarSet, sidecarSetStatus, V18, V19 } from './takeover-fixtures.js';

type Json = Record<string, any>;
const NOW = new Date('2026-05-06T07:08:09Z');
const live = (s: SidecarSet): SidecarSet => ({ ...s, metadata: { ...s.metadata, uid: `uid-${s.metadata?.name}`, generation: 1 } });

describe('takeover CRDs', () => {
  for (const p of PLURALS) {
    it(`${p}: v1.8.4 serves and stores v1alpha1 only, without conversion`, () => {
      const crd = v18Crd(p);
      assert.deepEqual(crd.spec.versions.map((v: Json) => [v.name, v.served, v.storage]), [['v1alpha1', true, true]]);
      assert.equal(crd.spec.conversion, undefined);
      assert.equal(crd.metadata.annotations, undefined, 'no Helm ownership: the chart must take it over');
    });
    it(`${p}: v1.9.0 serves both, stores v1beta1; only SidecarSet converts through a webhook`, () => {
      const crd = v19Crd(p, 'Q0E=');
      assert.deepEqual(crd.spec.versions.map((v: Json) => [v.name, v.served, v.storage]), [['v1alpha1', true, false], ['v1beta1', true, true]]);
      assert.equal(crd.spec.conversion?.strategy, p === 'sidecarsets' ? 'Webhook' : undefined);
    });
  }
  it('v1.9.0 SidecarSet v1beta1 has customVersion and no namespace; v1alpha1 keeps namespace (§2.1)', () => {
    const [alpha, beta] = v19Crd('sidecarsets', 'Q0E=').spec.versions.map((v: Json) => v.schema.openAPIV3Schema.properties.spec.properties);
    assert.deepEqual([Boolean(alpha.namespace), Boolean(alpha.customVersion)], [true, false]);
    assert.deepEqual([Boolean(beta.namespace), Boolean(beta.customVersion)], [false, true]);
    assert.deepEqual(v19Crd('sidecarsets', 'Q0E=').spec.conversion.webhook.clientConfig.service, { namespace: 'kruise-system', name: 'kruise-webhook-service', port: 443, path: '/convert' });
  });
  it('NodeImage pullSecrets[].mode exists in v1.9.0 v1beta1 only; status.waiting is v1.9 (§5.1)', () => {
    const mode = (v: Json) => Boolean(v.schema.openAPIV3Schema.properties.spec.properties.images.additionalProperties.properties.pullSecrets.items.properties.mode);
    assert.deepEqual(v19Crd('nodeimages', 'Q0E=').spec.versions.map(mode), [false, true]);
    assert.equal(v18Crd('nodeimages').spec.versions[0].schema.openAPIV3Schema.properties.status.properties.waiting, undefined);
  });
});

describe('takeover objects', () => {
  it('v1.8 `ns` and `cv` SidecarSets carry spec.namespace and the custom-version label; v1.9 the forms §2.2 converts them to', () => {
    assert.equal(sidecarSet(V18, 'ns').spec?.namespace, V18.namespace);
    assert.equal(sidecarSet(V18, 'cv').metadata?.labels?.[SidecarSetCustomVersionLabel], 'v1');
    const ns19 = sidecarSet(V19, 'ns') as Json;
    const cv19 = sidecarSet(V19, 'cv') as Json;
    assert.equal(ns19.apiVersion, 'apps.kruise.io/v1beta1');
    assert.deepEqual(ns19.spec.namespaceSelector, { matchLabels: { 'kubernetes.io/metadata.name': V19.namespace } });
    assert.equal(cv19.spec.customVersion, 'v2');
    // The v1.8 objects convert to exactly what the v1.9 era writes, apart from names.
    const converted = sidecarSetToV1beta1(sidecarSet(V18, 'ns')) as Json;
    assert.deepEqual(converted.spec.namespaceSelector, { matchLabels: { 'kubernetes.io/metadata.name': V18.namespace } });
  });

  for (const era of [V18, V19]) {
    it(`${era.release}: hash annotations are the hash of the stored containers, the same in either version (§2.5)`, () => {
      for (const k of SET_KINDS) {
        const s = sidecarSet(era, k);
        const other = era === V18 ? sidecarSetToV1beta1(s) : sidecarSetToV1alpha1(s as never);
        assert.equal(s.metadata?.annotations?.[SidecarSetHashAnnotation], sidecarSetHash(s));
        assert.equal(sidecarSetHash(other as SidecarSet), sidecarSetHash(s), `${setName(era, k)} in the other version`);
        assert.notEqual(s.metadata?.annotations?.[SidecarSetHashWithoutImageAnnotation], s.metadata?.annotations?.[SidecarSetHashAnnotation]);
      }
    });

    it(`${era.release}: a pod's hash annotation names the SidecarSet's revision and hash; sidecar, IS_INJECTED and TZ injected`, () => {
      const sets = SET_KINDS.map((k) => live(sidecarSet(era, k)));
      const withStatus = sets.map((s) => ({ ...s, status: sidecarSetStatus(s, controllerRevision(era, s).metadata!.name!, 1) }));
      const cv = withStatus[2]!;
      const pod = injectedPod(era, 'cv', 'p', 'node', withStatus, NOW);
      const entry = (JSON.parse(pod.metadata!.annotations!['kruise.io/sidecarset-hash']!) as Json)[cv.metadata!.name!];
      assert.deepEqual([entry.hash, entry.controllerRevision, entry.sidecarList], [cv.metadata!.annotations![SidecarSetHashAnnotation], cv.status.latestRevision, ['cv-sidecar']]);
      assert.equal(pod.metadata!.annotations!['kruise.io/sidecarset-injected-list'], cv.metadata!.name);
      const sidecar = pod.spec!.containers.find((c) => c.name === 'cv-sidecar')!;
      assert.deepEqual(sidecar.env?.map((e) => e.name), ['SIDECAR_OF', 'IS_INJECTED', 'TZ']);
      assert.deepEqual(pod.spec!.containers.map((c) => c.name), ['cv-sidecar', 'app'], 'only the matched SidecarSet injects');
    });

    it(`${era.release}: the revision is labelled and owned as that era's controller writes it (§6.8)`, () => {
      const s = live(sidecarSet(era, 'cv'));
      const rev = controllerRevision(era, s);
      assert.equal(rev.metadata?.namespace, 'kruise-system');
      assert.equal(rev.metadata?.labels?.[SidecarSetCustomVersionLabel], era === V18 ? 'v1' : 'v2');
      assert.equal(rev.metadata?.labels?.['kruise.io/sidecarset-name'], s.metadata?.name);
      assert.equal(rev.metadata?.name, `${s.metadata?.name}-${rev.metadata?.labels?.['controller.kubernetes.io/hash']}`);
      assert.deepEqual(rev.metadata?.ownerReferences?.map((o) => [o.apiVersion, o.uid]), [[era.apiVersion, s.metadata?.uid]]);
    });

    it(`${era.release}: the NodeImage has the node's labels, tags defaulted and sorted, mode batch only in v1.9`, () => {
      const ni = nodeImage(era, { name: 'n1', labels: { type: 'kwok' } }, { uid: 'job-uid' }, NOW);
      assert.deepEqual(ni.metadata?.labels, { type: 'kwok' });
      const nginx = ni.spec!.images!.nginx!;
      assert.equal((nginx.pullSecrets![0] as Json).mode, era === V19 ? 'batch' : undefined);
      assert.deepEqual(nginx.tags[0]!.pullPolicy, { ttlSecondsAfterFinished: 86400, timeoutSeconds: 600, backoffLimit: 3 });
      assert.equal(nginx.tags[0]!.createdAt, '2026-05-06T07:08:09Z');
      assert.equal(nginx.tags[0]!.ownerReferences![0]!.uid, 'job-uid');
    });
  }
});
