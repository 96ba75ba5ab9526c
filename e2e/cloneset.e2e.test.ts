// CloneSet on the real apiserver: defaulting and validation through the running webhook, pods on kwok nodes created
// with upstream's names, revisions and readiness gates, scale down in pod-deletion-cost order and by podsToDelete,
// ReCreate replacing pods; and on the real node an InPlaceIfPossible image change restarting the container in the same
// pod (same name and UID, restartCount 1).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { load, loadAll } from 'js-yaml';
import type { CloneSet } from '../shared/api/cloneset.js';
import type { Pod } from '../shared/api/meta.js';
import { newRevision } from '../shared/domain/cloneset/revision.js';
import { REAL_NODE_LABEL, REAL_NODE_TAINT } from './harness/node/index.js';
import { eventually, getJson, kubectl, kubectlOk, stack } from './harness/kube.js';

const s = stack();
const NS = 'e2e-cloneset';
const IN_PLACE_IMAGE = 'nginx:alpine';
const ID = /^[bcdfghjklmnpqrstvwxz2456789]{5}$/;

const cloneSetOf = (name: string) => getJson<CloneSet>(['clone', name, '-n', NS]);
const podsOf = (app: string) => getJson<{ items: Pod[] }>(['pods', '-n', NS, '-l', `app=${app}`]).items.filter((p) => !p.metadata?.deletionTimestamp);
const isReady = (p: Pod) => p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;

function cloneSet(name: string, replicas: number, image: string, spec: Record<string, unknown> = {}, podSpec: Record<string, unknown> = {}): string {
  return JSON.stringify({
    apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', metadata: { name, namespace: NS },
    spec: {
      replicas, selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'web', image, imagePullPolicy: 'IfNotPresent' }], ...podSpec } },
      ...spec,
    },
  });
}

/** Status counters as `kubectl get clone` prints them: DESIRED UPDATED UPDATED_READY UPDATED_AVAILABLE READY TOTAL. */
const columns = (name: string) => kubectlOk(['get', 'clone', name, '-n', NS, '--no-headers']).trim().split(/\s+/).slice(1, 7).join(' ');

describe('CloneSet', { skip: typeof s === 'string' ? s : false, timeout: 600_000 }, () => {
  before(() => { kubectlOk(['create', 'namespace', NS]); });
  after(() => {
    if (typeof s === 'string') return;
    kubectl(['delete', 'clonesets', '--all', '-n', NS, '--wait=false']);
    kubectl(['delete', 'pod', '--all', '-n', NS, '--grace-period=0', '--force', '--wait=false']);
    kubectl(['delete', 'namespace', NS, '--wait=false']);
  });

  it('the webhook defaults the CloneSet and refuses invalid ones with upstream\'s message', () => {
    kubectlOk(['apply', '-f', '-'], cloneSet('defaults', 0, 'nginx:1.7.9'));
    const cs = cloneSetOf('defaults');
    assert.deepEqual(cs.spec?.updateStrategy, { type: 'ReCreate', partition: 0, maxUnavailable: '20%', maxSurge: 0 });
    assert.equal(cs.spec?.revisionHistoryLimit, 10);
    assert.equal(cs.spec?.template.spec?.dnsPolicy, 'ClusterFirst');
    // (replicas -1 never reaches the webhook: the apiserver checks the scale subresource's replicas path first.)
    const bad = kubectl(['apply', '-f', '-'], cloneSet('bad', 2, 'nginx:1.7.9', { updateStrategy: { maxUnavailable: 0 } }, { restartPolicy: 'Never' }));
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /\[spec\.template\.spec\.restartPolicy: Unsupported value: "Never": supported values: "Always", spec\.updateStrategy\.maxUnavailable: Invalid value: intstr\.IntOrString\{Type:0, IntVal:0, StrVal:""\}: maxUnavailable and maxSurge should not both be less than 1\]/);
    kubectlOk(['delete', 'clone', 'defaults', '-n', NS]);
  });

  it('on kwok: 3 pods <name>-<id> at the revision, Ready with both gates; scale down by deletion cost and podsToDelete; ReCreate replaces every pod', async () => {
    const kwok = { nodeSelector: { type: 'kwok' } };
    kubectlOk(['apply', '-f', '-'], cloneSet('kw', 3, 'nginx:1.7.9', { updateStrategy: { maxUnavailable: 1 } }, kwok));
    const pods = await eventually('3 Ready pods', () => { const l = podsOf('kw'); return l.length === 3 && l.every(isReady) && l; }, 120_000);
    const cs = await eventually('status 3/3/3', () => { const c = cloneSetOf('kw'); return c.status?.readyReplicas === 3 && c.status.updatedReadyReplicas === 3 && c; }, 60_000);
    const rev = cs.status!.updateRevision!;
    assert.match(rev, /^kw-[bcdfghjklmnpqrstvwxz2456789]+$/);
    assert.equal(cs.status?.currentRevision, rev);
    assert.equal(cs.status?.labelSelector, 'app=kw');
    for (const p of pods) {
      const id = p.metadata!.name!.slice('kw-'.length);
      assert.match(id, ID);
      assert.equal(p.metadata?.labels?.['apps.kruise.io/cloneset-instance-id'], id);
      assert.equal(p.metadata?.labels?.['controller-revision-hash'], rev);
      assert.equal(p.metadata?.labels?.['pod-template-hash'], rev.slice('kw-'.length));
      assert.deepEqual(p.metadata?.ownerReferences?.map((o) => `${o.kind}/${o.name}/${o.controller}`), ['CloneSet/kw/true']);
      assert.deepEqual(p.spec?.readinessGates?.map((g) => g.conditionType), ['InPlaceUpdateReady', 'KruisePodReady']);
      for (const t of ['InPlaceUpdateReady', 'KruisePodReady']) assert.equal(p.status?.conditions?.find((c) => c.type === t)?.status, 'True', t);
    }
    await eventually('lifecycle Normal', () => podsOf('kw').every((p) => p.metadata?.labels?.['lifecycle.apps.kruise.io/state'] === 'Normal'), 30_000);
    const crs = getJson<{ items: { metadata: { name: string }; revision: number }[] }>(['controllerrevisions', '-n', NS, '-l', 'app=kw']).items;
    assert.deepEqual(crs.map((r) => [r.metadata.name, r.revision]), [[rev, 1]]);
    assert.equal(columns('kw'), '3 3 3 3 3 3', 'kubectl get clone: DESIRED UPDATED UPDATED_READY UPDATED_AVAILABLE READY TOTAL');

    // Scale-in order: the lowest controller.kubernetes.io/pod-deletion-cost goes first.
    const [cheap, dear1, dear2] = pods.map((p) => p.metadata!.name!);
    kubectlOk(['annotate', 'pod', '-n', NS, cheap!, 'controller.kubernetes.io/pod-deletion-cost=-5']);
    kubectlOk(['annotate', 'pod', '-n', NS, dear1!, 'controller.kubernetes.io/pod-deletion-cost=100']);
    kubectlOk(['annotate', 'pod', '-n', NS, dear2!, 'controller.kubernetes.io/pod-deletion-cost=100']);
    kubectlOk(['scale', 'clone', 'kw', '-n', NS, '--replicas=2']);
    const two = await eventually('2 pods left', () => { const l = podsOf('kw'); return l.length === 2 && l; }, 60_000);
    assert.deepEqual(two.map((p) => p.metadata!.name).sort(), [dear1, dear2].sort(), `${cheap} (cost -5) is the one deleted`);

    // podsToDelete names the pod to remove; the controller drops the name once it is gone.
    kubectlOk(['patch', 'clone', 'kw', '-n', NS, '--type=merge', '-p', JSON.stringify({ spec: { replicas: 1, scaleStrategy: { podsToDelete: [dear2] } } })]);
    await eventually(`${dear2} deleted, ${dear1} kept`, () => { const l = podsOf('kw'); return l.length === 1 && l[0]!.metadata!.name === dear1; }, 60_000);
    await eventually('podsToDelete emptied', () => (cloneSetOf('kw').spec?.scaleStrategy?.podsToDelete ?? []).length === 0, 30_000);

    // ReCreate: back to 3, then a new image replaces every pod with one at the new revision.
    kubectlOk(['scale', 'clone', 'kw', '-n', NS, '--replicas=3']);
    const before3 = await eventually('3 Ready pods again', () => { const l = podsOf('kw'); return l.length === 3 && l.every(isReady) && l; }, 120_000);
    const old = new Set(before3.map((p) => p.metadata!.name!));
    kubectlOk(['patch', 'clone', 'kw', '-n', NS, '--type=json', '-p', JSON.stringify([{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: 'nginx:1.9.1' }])]);
    const replaced = await eventually('3 new Ready pods at nginx:1.9.1', () => {
      const l = podsOf('kw');
      return l.length === 3 && l.every((p) => !old.has(p.metadata!.name!) && isReady(p) && p.spec?.containers[0]?.image === 'nginx:1.9.1') && l;
    }, 180_000);
    const done = await eventually('status: every pod updated', () => { const c = cloneSetOf('kw'); return c.status?.updatedReadyReplicas === 3 && c.status.currentRevision === c.status.updateRevision && c; }, 60_000);
    assert.notEqual(done.status?.updateRevision, rev);
    for (const p of replaced) assert.equal(p.metadata?.labels?.['controller-revision-hash'], done.status?.updateRevision);
    const events = kubectlOk(['get', 'events', '-n', NS, '--field-selector', 'involvedObject.name=kw', '-o', 'jsonpath={.items[*].reason}']);
    for (const reason of ['SuccessfulCreate', 'SuccessfulDelete', 'SuccessfulUpdatePodReCreate']) assert.match(events, new RegExp(reason));
  });

  it('on the real node: an InPlaceIfPossible image change restarts the container in the same pod (same name and UID, restartCount 1)', async (t) => {
    if (typeof s === 'string' || !s.realNode) return t.skip('the stack has no real node (KRUISE_TS_REAL_NODE=0)');
    const pinned = {
      nodeSelector: { [REAL_NODE_LABEL]: 'true' },
      tolerations: [{ key: REAL_NODE_TAINT.key, operator: 'Exists', effect: REAL_NODE_TAINT.effect }],
    };
    kubectlOk(['apply', '-f', '-'], cloneSet('inplace', 1, 'nginx:1.7.9', { updateStrategy: { type: 'InPlaceIfPossible' } }, pinned));
    const running = (p: Pod) => p.status?.phase === 'Running' && isReady(p) && (p.status.containerStatuses ?? []).every((c) => c.ready && c.state?.running);
    const [first] = await eventually('the pod Running and Ready on the real node', () => { const l = podsOf('inplace'); return l.length === 1 && running(l[0]!) && l; }, 180_000);
    assert.equal(first!.spec?.nodeName, s.realNode.name);
    assert.equal(first!.status?.containerStatuses?.[0]?.restartCount, 0);
    const oldRev = cloneSetOf('inplace').status?.updateRevision;

    // nginx:alpine, not 1.9.1: example 10's replay (real-node-replay) asserts nginx:1.9.1 is not on the node before
    // its ImagePullJob pulls it, and this file runs first.
    kubectlOk(['patch', 'clone', 'inplace', '-n', NS, '--type=json', '-p', JSON.stringify([{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: IN_PLACE_IMAGE }])]);
    const updated = await eventually(`the same pod running ${IN_PLACE_IMAGE} after one restart`, () => {
      const l = podsOf('inplace');
      const p = l[0];
      return l.length === 1 && p && p.spec?.containers[0]?.image === IN_PLACE_IMAGE && running(p) && p.status?.containerStatuses?.[0]?.restartCount === 1 &&
        p.metadata?.labels?.['lifecycle.apps.kruise.io/state'] === 'Normal' && p;
    }, 180_000);
    assert.equal(updated.metadata?.name, first!.metadata?.name);
    assert.equal(updated.metadata?.uid, first!.metadata?.uid);
    assert.ok((updated.status?.containerStatuses?.[0]?.image ?? '').endsWith(IN_PLACE_IMAGE), updated.status?.containerStatuses?.[0]?.image);
    assert.notEqual(updated.status?.containerStatuses?.[0]?.imageID, first!.status?.containerStatuses?.[0]?.imageID);
    assert.equal(updated.status?.conditions?.find((c) => c.type === 'InPlaceUpdateReady')?.status, 'True');
    const state = JSON.parse(updated.metadata?.annotations?.['apps.kruise.io/inplace-update-state'] ?? '{}') as { revision?: string; updateImages?: boolean; lastContainerStatuses?: Record<string, { imageID: string }> };
    const cs = await eventually('status: the update revision is current', () => { const c = cloneSetOf('inplace'); return c.status?.currentRevision === c.status?.updateRevision && c.status?.updatedReadyReplicas === 1 && c; }, 60_000);
    assert.notEqual(cs.status?.updateRevision, oldRev);
    assert.equal(state.revision, cs.status?.updateRevision);
    assert.equal(state.updateImages, true);
    assert.equal(state.lastContainerStatuses?.web?.imageID, first!.status?.containerStatuses?.[0]?.imageID);
    const events = kubectlOk(['get', 'events', '-n', NS, '--field-selector', 'involvedObject.name=inplace', '-o', 'jsonpath={.items[*].reason}']);
    assert.match(events, /SuccessfulUpdatePodInPlace/);
  });

  it('the article\'s hot-upgrade CloneSet with the hot-upgrade SidecarSet on the real node: busybox-xxxxx 3/3, Controlled By CloneSet/busybox, v1 then v2 with no failed request', async (t) => {
    if (typeof s === 'string' || !s.realNode) return t.skip('the stack has no real node (KRUISE_TS_REAL_NODE=0)');
    const examples = join(import.meta.dirname, 'cluster/examples');
    const [sidecarSet] = loadAll(readFileSync(join(examples, '07-hotupgrade.yaml'), 'utf8')) as Record<string, any>[];
    const cs = load(readFileSync(join(examples, '07b-hotupgrade-cloneset.yaml'), 'utf8')) as Record<string, any>;
    // As printed, but pinned to the real node.
    cs.metadata.namespace = NS;
    Object.assign(cs.spec.template.spec, {
      nodeSelector: { [REAL_NODE_LABEL]: 'true' },
      tolerations: [{ key: REAL_NODE_TAINT.key, operator: 'Exists', effect: REAL_NODE_TAINT.effect }],
    });
    kubectlOk(['apply', '-f', '-'], JSON.stringify(sidecarSet));
    try {
      kubectlOk(['apply', '-f', '-'], JSON.stringify(cs));
      const allRunning = (p: Pod) => p.status?.phase === 'Running' && isReady(p) && (p.status.containerStatuses ?? []).length === 3 &&
        (p.status.containerStatuses ?? []).every((c) => c.ready && c.state?.running);
      const [pod] = await eventually('busybox-xxxxx 3/3 Running', () => { const l = podsOf('hotupgrade'); return l.length === 1 && allRunning(l[0]!) && l; }, 240_000);
      const name = pod!.metadata!.name!;
      assert.match(name, /^busybox-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
      assert.deepEqual(pod!.spec?.containers.map((c) => c.name), ['sidecar-1', 'sidecar-2', 'busybox']);
      assert.match(kubectlOk(['describe', 'pod', '-n', NS, name]), /Controlled By:\s+CloneSet\/busybox/);
      await eventually('kubectl get clone: 1 1 1 1 1 1', () => columns('busybox') === '1 1 1 1 1 1', 60_000);
      const stored = cloneSetOf('busybox');
      const rev = stored.status?.updateRevision;
      // The pinning patch changes the template, so not the seed's busybox-69478977cd (unit vectors check that one):
      // the name upstream's hash gives the stored, defaulted template.
      assert.equal(rev, newRevision(stored, 1, 0).metadata.name);

      const logs = () => kubectlOk(['logs', '-n', NS, name, '-c', 'busybox']);
      await eventually('the app hears v1', () => logs().includes('response(body=This is version(v1) sidecar)'), 60_000);
      kubectlOk(['patch', 'sidecarset', 'hotupgrade-sidecarset', '--type=json', '-p',
        '[{"op":"replace","path":"/spec/containers/0/image","value":"openkruise/hotupgrade-sample:sidecarv2"}]']);
      const upgraded = await eventually('v2 serving, the old slot reset to empty', () => {
        const [p] = podsOf('hotupgrade');
        const images = Object.fromEntries((p?.status?.containerStatuses ?? []).map((c) => [c.name, c.image]));
        return p && allRunning(p) && images['sidecar-2'] === 'docker.io/openkruise/hotupgrade-sample:sidecarv2' &&
          images['sidecar-1'] === 'docker.io/openkruise/hotupgrade-sample:empty' && logs().includes('This is version(v2) sidecar') && p;
      }, 300_000);
      assert.equal(upgraded.metadata?.uid, pod!.metadata?.uid, 'the same pod');
      assert.equal(upgraded.status?.containerStatuses?.find((c) => c.name === 'busybox')?.restartCount, 0, 'the app never failed a request (it exits on the first)');
      const lines = logs().trim().split('\n');
      const firstV2 = lines.findIndex((l) => l.includes('(v2)'));
      assert.ok(firstV2 > 0 && lines.slice(firstV2).every((l) => l.includes('(v2)')), 'v1 answers, then only v2');
      // The sidecar upgrade is not a CloneSet revision: the pod stays updated, at the same revision, and Normal.
      assert.equal(upgraded.metadata?.labels?.['controller-revision-hash'], rev);
      assert.equal(upgraded.metadata?.labels?.['lifecycle.apps.kruise.io/state'], 'Normal');
      assert.equal(upgraded.status?.conditions?.find((c) => c.type === 'InPlaceUpdateReady')?.status, 'True');
      const after = cloneSetOf('busybox');
      assert.equal(after.status?.updateRevision, rev);
      assert.equal(after.status?.updatedReadyReplicas, 1);
    } finally {
      kubectl(['delete', 'clone', 'busybox', '-n', NS, '--wait=false']);
      kubectl(['delete', 'sidecarset', 'hotupgrade-sidecarset', '--ignore-not-found']);
    }
  });
});
