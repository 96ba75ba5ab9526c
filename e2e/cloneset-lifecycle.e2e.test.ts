// CloneSet lifecycle hooks and volumeClaimTemplates on the real apiserver, pods on kwok nodes: a preDelete finalizer
// holds a scaled-in pod in PreparingDelete (KruisePodReady False) until it is removed; an inPlaceUpdate label holds an
// image change in PreparingUpdate until released; each pod gets its PVC, bound here by hand (the harness runs no
// provisioner and the controller-manager's PV binder is off), a pod deleted by someone else is replaced with the same
// instance id and PVC, and with disablePVCReuse its PVC goes instead.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { V1PersistentVolumeClaim } from '@kubernetes/client-node';
import type { CloneSet } from '../shared/api/cloneset.js';
import type { Pod } from '../shared/api/meta.js';
import { eventually, getJson, kubectl, kubectlOk, stack } from './harness/kube.js';

const s = stack();
const NS = 'e2e-cloneset-lifecycle';
const PRE_DELETE = 'e2e.kruise.io/pre-delete';
const UPDATE_HOLD = 'e2e.kruise.io/update-hold';
const KWOK = { nodeSelector: { type: 'kwok' } };

type Claim = V1PersistentVolumeClaim & { metadata: NonNullable<V1PersistentVolumeClaim['metadata']> };

const podsOf = (app: string) => getJson<{ items: Pod[] }>(['pods', '-n', NS, '-l', `app=${app}`]).items.filter((p) => !p.metadata?.deletionTimestamp);
const claimsOf = (app: string) => getJson<{ items: Claim[] }>(['pvc', '-n', NS, '-l', `app=${app}`]).items.filter((c) => !c.metadata.deletionTimestamp);
const cloneSetOf = (name: string) => getJson<CloneSet>(['clone', name, '-n', NS]);
const state = (p: Pod | undefined) => p?.metadata?.labels?.['lifecycle.apps.kruise.io/state'];
const kruisePodReady = (p: Pod | undefined) => p?.status?.conditions?.find((c) => c.type === 'KruisePodReady');
const isReady = (p: Pod) => p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
const idOf = (o: { metadata?: { labels?: Record<string, string> } }) => o.metadata?.labels?.['apps.kruise.io/cloneset-instance-id'];

function cloneSet(name: string, replicas: number, spec: Record<string, unknown>, template: { labels?: Record<string, string>; finalizers?: string[]; podSpec?: Record<string, unknown> } = {}): string {
  return JSON.stringify({
    apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', metadata: { name, namespace: NS },
    spec: {
      replicas, selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name, ...template.labels }, ...(template.finalizers ? { finalizers: template.finalizers } : {}) },
        spec: { containers: [{ name: 'web', image: 'nginx:1.7.9', imagePullPolicy: 'IfNotPresent' }], ...KWOK, ...template.podSpec },
      },
      ...spec,
    },
  });
}

/** What the PV binder would do: a PV pre-bound to the claim, the claim's volumeName, both Bound. */
function bindByHand(claim: Claim): void {
  const name = claim.metadata.name!;
  const pv = `${NS}-${name}`;
  kubectlOk(['apply', '-f', '-'], JSON.stringify({
    apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: pv, labels: { 'e2e.kruise.io/ns': NS } },
    spec: {
      capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], persistentVolumeReclaimPolicy: 'Delete', hostPath: { path: `/tmp/${pv}` },
      claimRef: { apiVersion: 'v1', kind: 'PersistentVolumeClaim', namespace: NS, name, uid: claim.metadata.uid },
    },
  }));
  kubectlOk(['patch', 'pv', pv, '--subresource=status', '--type=merge', '-p', '{"status":{"phase":"Bound"}}']);
  // The scheduler takes a claim as bound only with volumeName and the binder's bind-completed annotation.
  kubectlOk(['patch', 'pvc', name, '-n', NS, '--type=merge', '-p', JSON.stringify({
    metadata: { annotations: { 'pv.kubernetes.io/bind-completed': 'yes', 'pv.kubernetes.io/bound-by-controller': 'yes' } }, spec: { volumeName: pv } })]);
  kubectlOk(['patch', 'pvc', name, '-n', NS, '--subresource=status', '--type=merge', '-p',
    JSON.stringify({ status: { phase: 'Bound', accessModes: ['ReadWriteOnce'], capacity: { storage: '1Gi' } } })]);
}

/** Binds every claim of `app` not bound yet; true once every one is. */
function bindAll(app: string): boolean {
  const claims = claimsOf(app);
  for (const c of claims) if (c.status?.phase !== 'Bound') bindByHand(c);
  return claims.length > 0 && claimsOf(app).every((c) => c.status?.phase === 'Bound');
}

describe('CloneSet lifecycle hooks and volumeClaimTemplates', { skip: typeof s === 'string' ? s : false, timeout: 600_000 }, () => {
  before(() => { kubectlOk(['create', 'namespace', NS]); });
  after(() => {
    if (typeof s === 'string') return;
    kubectl(['delete', 'clonesets', '--all', '-n', NS, '--wait=false']);
    // Template finalizers would keep the pods (and the namespace) forever.
    for (const p of getJson<{ items: Pod[] }>(['pods', '-n', NS]).items) {
      if (p.metadata?.finalizers?.length) kubectl(['patch', 'pod', p.metadata.name!, '-n', NS, '--type=merge', '-p', '{"metadata":{"finalizers":null}}']);
    }
    kubectl(['delete', 'pod', '--all', '-n', NS, '--grace-period=0', '--force', '--wait=false']);
    kubectl(['delete', 'pv', '-l', `e2e.kruise.io/ns=${NS}`, '--wait=false']);
    kubectl(['delete', 'namespace', NS, '--wait=false']);
  });

  it('preDelete (finalizer, markPodNotReady): the scaled-in pod waits in PreparingDelete with KruisePodReady False until the finalizer goes', async () => {
    kubectlOk(['apply', '-f', '-'], cloneSet('predel', 2, { lifecycle: { preDelete: { finalizersHandler: [PRE_DELETE], markPodNotReady: true } } }, { finalizers: [PRE_DELETE] }));
    await eventually('2 Ready Normal pods', () => { const l = podsOf('predel'); return l.length === 2 && l.every((p) => isReady(p) && state(p) === 'Normal') && l; }, 120_000);
    kubectlOk(['scale', 'clone', 'predel', '-n', NS, '--replicas=1']);
    const held = await eventually('one pod PreparingDelete with the preDeleteHook holder', () => {
      const p = podsOf('predel').find((x) => state(x) === 'PreparingDelete');
      return p && kruisePodReady(p)?.status === 'False' && kruisePodReady(p)?.message?.includes('"key":"preDeleteHook"') && p;
    }, 60_000);
    assert.equal(kruisePodReady(held)?.message, '[{"userAgent":"Lifecycle","key":"preDeleteHook"}]');
    // The controller has seen the scale (status written for this generation) and still keeps the pod.
    await eventually('status for the new generation', () => { const c = cloneSetOf('predel'); return c.status?.observedGeneration === c.metadata?.generation && c.status?.availableReplicas === 1; }, 30_000);
    const name = held.metadata!.name!;
    assert.ok(podsOf('predel').some((p) => p.metadata?.name === name), 'the hooked pod is still there');
    assert.equal(podsOf('predel').length, 2);

    kubectlOk(['patch', 'pod', name, '-n', NS, '--type=json', '-p', '[{"op":"remove","path":"/metadata/finalizers"}]']);
    await eventually(`${name} deleted once unhooked`, () => kubectl(['get', 'pod', name, '-n', NS]).code !== 0, 60_000);
    assert.equal(podsOf('predel').length, 1);
  });

  it('inPlaceUpdate (label, markPodNotReady): an image change waits in PreparingUpdate until the label is removed', async () => {
    kubectlOk(['apply', '-f', '-'], cloneSet('inplace-hook', 1, {
      updateStrategy: { type: 'InPlaceIfPossible' },
      lifecycle: { inPlaceUpdate: { labelsHandler: { [UPDATE_HOLD]: 'true' }, markPodNotReady: true } },
    }, { labels: { [UPDATE_HOLD]: 'true' } }));
    const [pod] = await eventually('a Ready Normal pod', () => { const l = podsOf('inplace-hook'); return l.length === 1 && isReady(l[0]!) && state(l[0]) === 'Normal' && l; }, 120_000);
    const name = pod!.metadata!.name!;
    kubectlOk(['patch', 'clone', 'inplace-hook', '-n', NS, '--type=json', '-p', JSON.stringify([{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: 'nginx:1.9.1' }])]);
    const held = await eventually('PreparingUpdate with the preUpdateHook holder', () => {
      const p = podsOf('inplace-hook')[0];
      return p && state(p) === 'PreparingUpdate' && kruisePodReady(p)?.status === 'False' && p;
    }, 60_000);
    assert.equal(kruisePodReady(held)?.message, '[{"userAgent":"Lifecycle","key":"preUpdateHook"}]');
    assert.equal(held.spec?.containers[0]?.image, 'nginx:1.7.9', 'the image waits for the hook');
    assert.equal(held.metadata?.uid, pod!.metadata?.uid);

    kubectlOk(['label', 'pod', name, '-n', NS, `${UPDATE_HOLD}-`]);
    const updated = await eventually('the image patched in place once released', () => {
      const p = podsOf('inplace-hook')[0];
      return p && p.spec?.containers[0]?.image === 'nginx:1.9.1' && p;
    }, 60_000);
    assert.equal(updated.metadata?.uid, pod!.metadata?.uid, 'the same pod');
    assert.ok(['Updating', 'Updated'].includes(state(updated) ?? ''), state(updated));
    const events = kubectlOk(['get', 'events', '-n', NS, '--field-selector', 'involvedObject.name=inplace-hook', '-o', 'jsonpath={.items[*].reason}']);
    assert.match(events, /SuccessfulUpdatePodInPlace/);
  });

  it('volumeClaimTemplates: one bound PVC per pod, owned by the CloneSet; a pod deleted by hand comes back with its PVC', async () => {
    const vct = [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }];
    const mount = { podSpec: { containers: [{ name: 'web', image: 'nginx:1.7.9', imagePullPolicy: 'IfNotPresent', volumeMounts: [{ name: 'data', mountPath: '/data' }] }] } };
    kubectlOk(['apply', '-f', '-'], cloneSet('vct', 2, { volumeClaimTemplates: vct, updateStrategy: { type: 'ReCreate', maxUnavailable: 2 } }, mount));
    await eventually('2 PVCs, bound by hand', () => claimsOf('vct').length === 2 && bindAll('vct'), 60_000);
    const pods = await eventually('2 Ready pods', () => { const l = podsOf('vct'); return l.length === 2 && l.every(isReady) && l; }, 120_000);
    const claims = claimsOf('vct');
    assert.deepEqual(claims.map((c) => c.metadata.name).sort(), pods.map((p) => `data-vct-${idOf(p)}`).sort());
    for (const c of claims) {
      assert.equal(c.status?.phase, 'Bound');
      assert.deepEqual(c.metadata.ownerReferences?.map((o) => `${o.kind}/${o.name}/${o.controller}`), ['CloneSet/vct/true']);
    }
    for (const p of pods) assert.equal(p.spec?.volumes?.find((v) => v.name === 'data')?.persistentVolumeClaim?.claimName, `data-vct-${idOf(p)}`);

    // Deleted by someone else: the replacement reuses the instance id (so the pod name) and the very same PVC.
    const victim = pods[0]!;
    const claimUid = claims.find((c) => idOf(c) === idOf(victim))!.metadata.uid;
    kubectlOk(['delete', 'pod', victim.metadata!.name!, '-n', NS, '--wait=false']);
    const back = await eventually('a new pod with the same id, Ready', () => {
      const p = podsOf('vct').find((x) => idOf(x) === idOf(victim) && x.metadata?.uid !== victim.metadata?.uid);
      return p && isReady(p) && p;
    }, 120_000);
    assert.equal(back.metadata?.name, victim.metadata?.name);
    assert.equal(claimsOf('vct').find((c) => idOf(c) === idOf(victim))?.metadata.uid, claimUid, 'the PVC was reused, not recreated');
    assert.equal(claimsOf('vct').length, 2);
  });

  it('ReCreate takes each pod\'s PVC with it (as upstream); with disablePVCReuse a pod deleted by hand loses its PVC', async () => {
    const before = podsOf('vct');
    const oldIds = new Set(before.map(idOf));
    kubectlOk(['patch', 'clone', 'vct', '-n', NS, '--type=json', '-p', JSON.stringify([{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: 'nginx:1.9.1' }])]);
    const replaced = await eventually('2 new Ready pods at nginx:1.9.1 with new ids and PVCs', () => {
      bindAll('vct');
      const l = podsOf('vct');
      return l.length === 2 && l.every((p) => !oldIds.has(idOf(p)) && isReady(p) && p.spec?.containers[0]?.image === 'nginx:1.9.1') && l;
    }, 180_000);
    await eventually('only the new pods\' PVCs left', () => {
      const names = claimsOf('vct').map((c) => c.metadata.name).sort();
      return JSON.stringify(names) === JSON.stringify(replaced.map((p) => `data-vct-${idOf(p)}`).sort());
    }, 60_000);

    kubectlOk(['patch', 'clone', 'vct', '-n', NS, '--type=merge', '-p', '{"spec":{"scaleStrategy":{"disablePVCReuse":true}}}']);
    const victim = replaced[0]!;
    kubectlOk(['delete', 'pod', victim.metadata!.name!, '-n', NS, '--wait=false']);
    await eventually('a replacement with a new id, and the victim\'s PVC gone', () => {
      bindAll('vct');
      const l = podsOf('vct');
      return l.length === 2 && !l.some((p) => idOf(p) === idOf(victim)) && !claimsOf('vct').some((c) => idOf(c) === idOf(victim));
    }, 120_000);
  });
});
