// The SidecarSet controller against the real apiserver: status of the seed demo on kwok pods, then in-place rollouts
// on stand-in pods where the test plays kubelet (e2e/harness/standin-kubelet-loop.ts) and checks maxUnavailable on
// every state it observes: partition, paused, NotUpdate, canary selectors, a pod deleted and the SidecarSet edited
// mid-rollout, and a hot upgrade step by step.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { V1ControllerRevision, CoreV1Event } from '@kubernetes/client-node';
import { loadAll } from 'js-yaml';
import type { Pod } from '../shared/api/meta.js';
import { resources } from '../shared/kube/resources.js';
import { kubectl, kubectlOk, stack, untilInjected } from './harness/kube.js';
import { ensureStandinNode } from './harness/kubelet-standin.js';
import { sidecarImage, SidecarSets, sidecarSetsV1alpha1, waitUntil } from './harness/sidecarset-fixtures.js';
import { keepNodeReady, StandinKubelet, testRest, unavailable } from './harness/standin-kubelet-loop.js';

const s = stack();
const ns = 'e2e-sidecarset';
const node = 'kts-standin-scs';
const examples = join(import.meta.dirname, 'cluster/examples');
const ex = (f: string) => join(examples, f);
const yamlDocs = (file: string) => loadAll(readFileSync(file, 'utf8')) as Record<string, unknown>[];

describe('SidecarSet controller', { skip: typeof s === 'string' ? s : false, timeout: 900_000 }, () => {
  const rest = typeof s === 'string' ? undefined! : testRest();
  const sets = typeof s === 'string' ? undefined! : new SidecarSets(rest, ns, node);
  const kubelet = () => new StandinKubelet(rest, ns, node);
  const ofApp = (pods: Pod[], app: string) => pods.filter((p) => p.metadata?.labels?.app === app);

  let stopHeartbeats = () => {};
  before(() => {
    ensureStandinNode(node);
    stopHeartbeats = keepNodeReady(rest, node);
    kubectlOk(['create', 'namespace', ns]);
  });
  after(() => {
    stopHeartbeats();
    if (typeof s === 'string') return;
    kubectl(['delete', 'pod', '--all', '-n', ns, '--grace-period=0', '--force', '--wait=false']);
    kubectl(['delete', 'namespace', ns, '--wait=false']);
    kubectl(['delete', 'node', node, '--wait=false']);
  });

  it('seed demo: status counts 4/4/4 for 02-test-pod and the 05 Deployment on kwok, a revision in kruise-system, garbage-collected with the SidecarSet', async () => {
    kubectlOk(['apply', '-f', ex('01-sidecarset-demo.yaml')]);
    try {
      await untilInjected('default', { app: 'nginx' }, 'sidecar1', 'busybox');
      kubectlOk(['apply', '-f', ex('02-test-pod.yaml')]);
      kubectlOk(['apply', '-f', ex('05-nginx-deployment.yaml')]);
      const set = await sets.status('scs-demo', { matchedPods: 4, updatedPods: 4, readyPods: 4, updatedReadyPods: 4 }, 120_000);
      assert.match(set.status!.latestRevision!, /^scs-demo-[bcdfghjklmnpqrstvwxz2456789]+$/);
      assert.equal(set.status!.collisionCount, 0);
      const columns = kubectlOk(['get', 'sidecarset', 'scs-demo', '--no-headers']).trim().split(/\s+/);
      assert.deepEqual(columns.slice(0, 4), ['scs-demo', '4', '4', '4'], 'printer columns MATCHED UPDATED READY');

      const rev = await rest.get<V1ControllerRevision>(resources.controllerRevisions, { namespace: 'kruise-system', name: set.status!.latestRevision! });
      assert.equal(rev.metadata?.labels?.['kruise.io/sidecarset-name'], 'scs-demo');
      assert.equal(rev.metadata?.labels?.['controller.kubernetes.io/hash'], set.status!.latestRevision!.slice('scs-demo-'.length));
      assert.equal(rev.metadata?.annotations?.['kruise.io/sidecarset-hash'], set.metadata?.annotations?.['kruise.io/sidecarset-hash']);
      assert.equal(rev.revision, 1);
      const data = rev.data as { spec: Record<string, unknown> };
      assert.deepEqual(Object.keys(data.spec).sort(), ['$patch', 'containers', 'imagePullSecrets', 'initContainers', 'patchPodMetadata', 'volumes']);
      assert.equal(data.spec.$patch, 'replace');
      assert.deepEqual(rev.metadata?.ownerReferences?.map((o) => `${o.kind}/${o.name}/${o.controller}`), ['SidecarSet/scs-demo/true']);
    } finally {
      kubectl(['delete', '-f', ex('05-nginx-deployment.yaml'), '--ignore-not-found', '--wait=false']);
      kubectl(['delete', 'pod', 'test-pod', '--ignore-not-found', '--grace-period=0', '--force']);
      kubectl(['delete', 'sidecarset', 'scs-demo', '--ignore-not-found']);
    }
    await waitUntil('the revision garbage-collected with its SidecarSet', async () =>
      (await rest.list(resources.controllerRevisions, { namespace: 'kruise-system', labelSelector: 'kruise.io/sidecarset-name=scs-demo' })).items.length === 0, 60_000);
  });

  it('RollingUpdate, maxUnavailable 2: never more than 2 pods unavailable, each sidecar restarted exactly once; a pod deleted mid-rollout leaves the count', async () => {
    await sets.create('roll', 'roll', 'busybox:1.35.0', { maxUnavailable: 2 });
    await sets.pods('roll', 5, { app: 'roll' });
    const k = kubelet();
    await k.until((pods) => ofApp(pods, 'roll').length === 5 && unavailable(ofApp(pods, 'roll')).length === 0, { what: 'pods started' });
    await sets.status('roll', { matchedPods: 5, updatedPods: 5, readyPods: 5 });

    await sets.setImage('roll', 'busybox:1.36.0');
    let deleted = false;
    let peak = 0;
    const pods = await k.until((ps) => ofApp(ps, 'roll').every((p) => sidecarImage(p) === 'busybox:1.36.0') && unavailable(ofApp(ps, 'roll')).length === 0, {
      what: 'rollout',
      check: (ps) => {
        const down = unavailable(ofApp(ps, 'roll'));
        peak = Math.max(peak, down.length);
        assert.ok(down.length <= 2, `more than maxUnavailable=2 pods unavailable: ${down.join(', ')}`);
        // Once the first batch is out, delete a pod still on the old image: the rollout goes on without it.
        const old = ofApp(ps, 'roll').find((p) => sidecarImage(p) === 'busybox:1.35.0');
        if (!deleted && old && ofApp(ps, 'roll').some((p) => sidecarImage(p) === 'busybox:1.36.0')) {
          sets.forceDeletePods(old.metadata!.name!);
          deleted = true;
        }
      },
    });
    assert.equal(deleted, true);
    assert.equal(peak, 2, 'the controller used the whole budget');
    assert.equal(ofApp(pods, 'roll').length, 4);
    for (const p of ofApp(pods, 'roll')) {
      assert.equal(k.restarts.get(`${p.metadata!.name}/sidecar`), 1, `${p.metadata!.name} sidecar restarted once`);
      assert.equal(k.restarts.get(`${p.metadata!.name}/app`), undefined, 'the app container is never touched');
      const state = JSON.parse(p.metadata!.annotations!['kruise.io/sidecarset-inplace-update-state']!) as Record<string, { lastContainerStatuses: Record<string, { imageID: string }> }>;
      assert.match(state.roll!.lastContainerStatuses.sidecar!.imageID, /busybox@sha256:/, 'the pre-update imageID is recorded');
      const hash = JSON.parse(p.metadata!.annotations!['kruise.io/sidecarset-hash']!) as Record<string, { controllerRevision: string }>;
      assert.match(hash.roll!.controllerRevision, /^roll-/);
    }
    const set = await sets.status('roll', { matchedPods: 4, updatedPods: 4, readyPods: 4, updatedReadyPods: 4 });
    const revs = (await rest.list<V1ControllerRevision>(resources.controllerRevisions, { namespace: 'kruise-system', labelSelector: 'kruise.io/sidecarset-name=roll' })).items;
    assert.deepEqual(revs.map((r) => r.revision).sort(), [1, 2]);
    assert.equal(revs.find((r) => r.revision === 2)?.metadata?.name, set.status!.latestRevision);
  });

  it('partition 2 keeps two pods on the old image until lowered; paused and NotUpdate hold everything', async () => {
    await sets.create('part', 'part', 'busybox:1.35.0', { maxUnavailable: 4, partition: 2, paused: true });
    await sets.pods('part', 4, { app: 'part' });
    const k = kubelet();
    await k.until((pods) => ofApp(pods, 'part').length === 4 && unavailable(ofApp(pods, 'part')).length === 0, { what: 'pods started' });

    // Paused: a new image is recorded in status, but no pod moves.
    await sets.setImage('part', 'busybox:1.36.0');
    await sets.status('part', { matchedPods: 4, updatedPods: 0, readyPods: 4 });
    await new Promise((r) => setTimeout(r, 2_000));
    assert.ok(ofApp(await k.tick(), 'part').every((p) => sidecarImage(p) === 'busybox:1.35.0'), 'paused: no pod updated');

    // NotUpdate: same.
    await sets.patch('part', { spec: { updateStrategy: { paused: false, type: 'NotUpdate' } } });
    await sets.status('part', { updatedPods: 0 });
    await new Promise((r) => setTimeout(r, 2_000));
    assert.ok(ofApp(await k.tick(), 'part').every((p) => sidecarImage(p) === 'busybox:1.35.0'), 'NotUpdate: no pod updated');

    // RollingUpdate with partition 2: two pods only.
    await sets.patch('part', { spec: { updateStrategy: { type: 'RollingUpdate' } } });
    await k.until((pods) => ofApp(pods, 'part').filter((p) => sidecarImage(p) === 'busybox:1.36.0').length === 2 && unavailable(ofApp(pods, 'part')).length === 0, { what: 'two pods updated' });
    await sets.status('part', { updatedPods: 2, updatedReadyPods: 2, readyPods: 4 });
    await new Promise((r) => setTimeout(r, 2_000));
    assert.equal(ofApp(await k.tick(), 'part').filter((p) => sidecarImage(p) === 'busybox:1.36.0').length, 2, 'partition holds the other two');

    await sets.patch('part', { spec: { updateStrategy: { partition: 0 } } });
    await k.until((pods) => ofApp(pods, 'part').every((p) => sidecarImage(p) === 'busybox:1.36.0') && unavailable(ofApp(pods, 'part')).length === 0, { what: 'all updated' });
    await sets.status('part', { updatedPods: 4, updatedReadyPods: 4 });
  });

  it('example 04 (maxUnavailable 20%, partition 10, paused): nothing moves while paused; unpaused, 5 of 15 pods update, at most 3 at once', async () => {
    // 04's updateStrategy and container verbatim; its selector (app=nginx) is narrowed to this test's pods, or it would
    // overlap scs-demo (01) on sidecar1 and be refused, as upstream does.
    const set = yamlDocs(ex('04-sidecarset-update-strategy.yaml'))[0] as { spec: { selector: unknown; containers: { name: string; image: string }[] } };
    set.spec.selector = { matchLabels: { app: 'strategy' } };
    kubectlOk(['create', '-f', '-'], JSON.stringify(set));
    try {
      await sets.injects({ app: 'strategy' }, 'sidecar1', 'busybox:1.35.0');
      await sets.pods('strategy', 15, { app: 'strategy' });
      const k = kubelet();
      const mine = (pods: Pod[]) => ofApp(pods, 'strategy');
      const updated = (pods: Pod[]) => mine(pods).filter((p) => sidecarImage(p, 'sidecar1') === 'busybox:1.36.0').length;
      await k.until((pods) => mine(pods).length === 15 && unavailable(mine(pods)).length === 0, { what: 'pods started' });

      await sets.setImage('sidecarset-strategy', 'busybox:1.36.0');
      await sets.status('sidecarset-strategy', { matchedPods: 15, updatedPods: 0, readyPods: 15 });
      await new Promise((r) => setTimeout(r, 2_000));
      assert.equal(updated(await k.tick()), 0, 'paused: no pod updated');

      // maxUnavailable 20% of 15 pods = 3 at once; partition 10 keeps ten pods back, so five update.
      let peak = 0;
      await sets.patch('sidecarset-strategy', { spec: { updateStrategy: { paused: false } } });
      await k.until((pods) => updated(pods) === 5 && unavailable(mine(pods)).length === 0, {
        what: 'five pods updated', check: (pods) => {
          peak = Math.max(peak, unavailable(mine(pods)).length);
          assert.ok(unavailable(mine(pods)).length <= 3, `maxUnavailable 20%: ${unavailable(mine(pods)).length} pods unavailable`);
        },
      });
      await sets.status('sidecarset-strategy', { matchedPods: 15, updatedPods: 5, updatedReadyPods: 5, readyPods: 15 });
      await new Promise((r) => setTimeout(r, 2_000));
      assert.equal(updated(await k.tick()), 5, 'partition 10 keeps ten pods on busybox:1.35.0');
      assert.ok(peak >= 1 && peak <= 3, `peak unavailable ${peak}`);
    } finally {
      await sets.delete('sidecarset-strategy');
      sets.forceDeletePods(...Array.from({ length: 15 }, (_, i) => `strategy-${i}`));
    }
  });

  it('canary: example 06 upgrades its selected pod; updateStrategy.selector limits an upgrade to canary pods', async () => {
    // Example 06 verbatim (the pod bound to the stand-in node).
    let sidecar: { name: string; image: string } | undefined;
    for (const item of yamlDocs(ex('06-canary-sidecarset.yaml'))) {
      if (item.kind === 'SidecarSet') sidecar = (item.spec as { containers: { name: string; image: string }[] }).containers[0];
      if (item.kind === 'Pod') {
        (item.metadata as Record<string, unknown>).namespace = ns;
        (item.spec as Record<string, unknown>).nodeName = node;
        if (sidecar) await untilInjected(ns, (item.metadata as { labels: Record<string, string> }).labels, sidecar.name, sidecar.image);
      }
      kubectlOk(['create', '-f', '-'], JSON.stringify(item));
    }
    const k = kubelet();
    await k.until((pods) => pods.some((p) => p.metadata?.name === 'canary-pod') && unavailable(pods.filter((p) => p.metadata?.name === 'canary-pod')).length === 0, { what: 'canary pod started' });
    await sets.status('test-sidecarset', { matchedPods: 1, readyPods: 1 });
    kubectlOk(['patch', 'sidecarset', 'test-sidecarset', '--type=json', '-p', '[{"op":"replace","path":"/spec/containers/0/image","value":"busybox:1.36.0"}]']);
    await k.until((pods) => pods.some((p) => p.metadata?.name === 'canary-pod' && sidecarImage(p, 'sidecar1') === 'busybox:1.36.0') && unavailable(pods.filter((p) => p.metadata?.name === 'canary-pod')).length === 0, { what: 'canary pod upgraded' });
    await sets.status('test-sidecarset', { matchedPods: 1, updatedReadyPods: 1 });
    await sets.delete('test-sidecarset');
    sets.forceDeletePods('canary-pod');

    // A canary subset by updateStrategy.selector.
    await sets.create('canary', 'canary', 'busybox:1.35.0', { maxUnavailable: 3, selector: { matchLabels: { 'canary.release': 'true' } } });
    await sets.pods('canary', 2, { app: 'canary' });
    await sets.pods('canary-c', 1, { app: 'canary', 'canary.release': 'true' });
    await k.until((pods) => ofApp(pods, 'canary').length === 3 && unavailable(ofApp(pods, 'canary')).length === 0, { what: 'pods started' });
    await sets.setImage('canary', 'busybox:1.36.0');
    await k.until((pods) => sidecarImage(pods.find((p) => p.metadata?.name === 'canary-c-0')!) === 'busybox:1.36.0' && unavailable(ofApp(pods, 'canary')).length === 0, { what: 'canary updated' });
    await sets.status('canary', { matchedPods: 3, updatedPods: 1, updatedReadyPods: 1 });
    await new Promise((r) => setTimeout(r, 2_000));
    assert.deepEqual(ofApp(await k.tick(), 'canary').map((p) => sidecarImage(p)).sort(), ['busybox:1.35.0', 'busybox:1.35.0', 'busybox:1.36.0']);
    // Promote: drop the selector.
    await rest.patch(resources.sidecarSets, { name: 'canary' }, 'json', [{ op: 'remove', path: '/spec/updateStrategy/selector' }]);
    await k.until((pods) => ofApp(pods, 'canary').every((p) => sidecarImage(p) === 'busybox:1.36.0') && unavailable(ofApp(pods, 'canary')).length === 0, { what: 'promoted' });
  });

  it('the SidecarSet edited mid-rollout: pods converge on the newest image, none touched beyond each change', async () => {
    await sets.create('edit', 'edit', 'busybox:1.35.0', { maxUnavailable: 1 });
    await sets.pods('edit', 3, { app: 'edit' });
    const k = kubelet();
    await k.until((pods) => ofApp(pods, 'edit').length === 3 && unavailable(ofApp(pods, 'edit')).length === 0, { what: 'pods started' });
    await sets.setImage('edit', 'busybox:1.36.0');
    let edited: Promise<unknown> | undefined;
    const pods = await k.until((ps) => ofApp(ps, 'edit').every((p) => sidecarImage(p) === 'busybox:1.37.0') && unavailable(ofApp(ps, 'edit')).length === 0, {
      what: 'converged on 1.37.0',
      // No maxUnavailable check here: after the edit the pod mid-way to 1.36.0 is a not-ready candidate for 1.37.0,
      // and upstream takes not-ready pods without counting them (spec §9 quirk 13).
      check: (ps) => {
        // Edit as soon as the first pod has 1.36.0 in its spec, before kubelet has even restarted it.
        if (!edited && ofApp(ps, 'edit').some((p) => sidecarImage(p) === 'busybox:1.36.0')) edited = sets.setImage('edit', 'busybox:1.37.0');
        return edited;
      },
    });
    const restarts = ofApp(pods, 'edit').map((p) => k.restarts.get(`${p.metadata!.name}/sidecar`)).sort();
    assert.ok(restarts.every((n) => n === 1 || n === 2), `each sidecar restarted once per image it was given: ${restarts.join()}`);
    assert.ok(restarts.filter((n) => n === 2).length <= 1, 'only pods updated before the edit went through 1.36.0');
    await sets.status('edit', { matchedPods: 3, updatedReadyPods: 3 });
  });

  it('revision history: custom-version labels, injection of an older revision by customVersion, revisionHistoryLimit', async () => {
    const revisions = async () => (await rest.list<V1ControllerRevision>(resources.controllerRevisions, { namespace: 'kruise-system', labelSelector: 'kruise.io/sidecarset-name=hist' })).items;
    const latest = async (image: string) => {
      const set = await sets.status('hist', {});
      const rev = (await revisions()).find((r) => r.metadata?.name === set.status?.latestRevision);
      return rev && (rev.data as { spec: { containers: { image: string }[] } }).spec.containers[0]!.image === image ? rev : undefined;
    };
    // The custom-version label is v1alpha1's way (v1beta1 has spec.customVersion): written and changed through v1alpha1.
    await rest.create(sidecarSetsV1alpha1, {
      apiVersion: 'apps.kruise.io/v1alpha1', kind: 'SidecarSet', metadata: { name: 'hist', labels: { 'apps.kruise.io/sidecarset-custom-version': 'v1' } },
      spec: { selector: { matchLabels: { app: 'hist' } }, revisionHistoryLimit: 2, updateStrategy: { type: 'NotUpdate' },
        containers: [{ name: 'sidecar', image: 'busybox:1.35.0', command: ['sleep', '1d'] }] },
    });
    try {
      const r1 = await waitUntil('revision 1', () => latest('busybox:1.35.0'));
      assert.equal(r1.metadata?.labels?.['apps.kruise.io/sidecarset-custom-version'], 'v1');
      await sets.patch('hist', { metadata: { labels: { 'apps.kruise.io/sidecarset-custom-version': 'v2' } } }, sidecarSetsV1alpha1);
      await sets.setImage('hist', 'busybox:1.36.0');
      const r2 = await waitUntil('revision 2 labelled v2', async () => { const r = await latest('busybox:1.36.0'); return r?.metadata?.labels?.['apps.kruise.io/sidecarset-custom-version'] === 'v2' && r; });
      assert.equal(r2.revision, 2);

      // The webhook finds revision 1 by its custom version and injects its image into a new pod.
      await sets.patch('hist', { spec: { injectionStrategy: { revision: { customVersion: 'v1' } } } });
      await sets.injects({ app: 'hist' }, 'sidecar', 'busybox:1.35.0');
      const [pod] = await sets.pods('hist', 1, { app: 'hist' });
      assert.equal(sidecarImage(pod!), 'busybox:1.35.0');
      assert.equal((JSON.parse(pod!.metadata!.annotations!['kruise.io/sidecarset-hash']!) as Record<string, { controllerRevision: string }>).hist!.controllerRevision, r1.metadata!.name);

      // A third version: beyond revisionHistoryLimit 2 the oldest unused revision (2) goes; 1 stays, injection uses it.
      await sets.patch('hist', { metadata: { labels: { 'apps.kruise.io/sidecarset-custom-version': 'v3' } } });
      await sets.setImage('hist', 'busybox:1.37.0');
      await waitUntil('revision 2 deleted, 1 and 3 kept', async () => {
        const names = (await revisions()).map((r) => r.metadata?.name);
        return names.length === 2 && names.includes(r1.metadata!.name) && !names.includes(r2.metadata!.name) && (await latest('busybox:1.37.0'));
      });
    } finally {
      sets.forceDeletePods('hist-0');
      await sets.delete('hist');
    }
  });

  it('hot upgrade (example 07): the standby slot gets the new image, then the old slot is reset to the empty image with ResetContainerSucceed', async () => {
    kubectlOk(['create', '-f', '-'], JSON.stringify(yamlDocs(ex('07-hotupgrade.yaml')).find((i) => i.kind === 'SidecarSet')));
    try {
      await sets.injects({ app: 'hotupgrade' }, 'sidecar-1', 'openkruise/hotupgrade-sample:sidecarv1');
      await sets.pods('hot', 1, { app: 'hotupgrade' });
      const k = kubelet();
      const hotPod = async () => (await k.pods()).find((p) => p.metadata?.name === 'hot-0')!;
      await k.until((pods) => unavailable(ofApp(pods, 'hotupgrade')).length === 0 && ofApp(pods, 'hotupgrade').length === 1, { what: 'pod started' });
      let pod = await hotPod();
      assert.equal(sidecarImage(pod, 'sidecar-1'), 'openkruise/hotupgrade-sample:sidecarv1');
      assert.equal(sidecarImage(pod, 'sidecar-2'), 'openkruise/hotupgrade-sample:empty');
      const set = await sets.status('hotupgrade-sidecarset', { matchedPods: 1, readyPods: 1 });

      const v2 = await sets.setImage('hotupgrade-sidecarset', 'openkruise/hotupgrade-sample:sidecarv2');
      // Step 1: the idle slot receives v2 and becomes the working one; the old slot keeps v1 for the handover.
      pod = await waitUntil('sidecar-2 gets v2', async () => { const p = await hotPod(); return sidecarImage(p, 'sidecar-2') === 'openkruise/hotupgrade-sample:sidecarv2' && p; });
      const a = pod.metadata!.annotations!;
      assert.equal(sidecarImage(pod, 'sidecar-1'), 'openkruise/hotupgrade-sample:sidecarv1');
      assert.equal(a['kruise.io/sidecarset-working-hotupgrade-container'], '{"sidecar":"sidecar-2"}');
      assert.equal(a['version.sidecarset.kruise.io/sidecar-2'], v2.metadata!.resourceVersion);
      assert.equal(a['versionalt.sidecarset.kruise.io/sidecar-2'], '1');
      assert.equal(a['versionalt.sidecarset.kruise.io/sidecar-1'], v2.metadata!.resourceVersion);
      assert.notEqual(v2.metadata!.resourceVersion, set.metadata!.resourceVersion);

      // Step 2: kubelet runs v2 in sidecar-2; the controller resets sidecar-1 to the empty image.
      await k.tick();
      await k.tick();
      pod = await waitUntil('sidecar-1 reset to empty', async () => { const p = await hotPod(); return sidecarImage(p, 'sidecar-1') === 'openkruise/hotupgrade-sample:empty' && p; });
      assert.equal(pod.metadata!.annotations!['version.sidecarset.kruise.io/sidecar-1'], '0');
      assert.equal(pod.metadata!.annotations!['versionalt.sidecarset.kruise.io/sidecar-2'], '0');
      const events = await waitUntil('ResetContainerSucceed event', async () => {
        const list = await rest.list<CoreV1Event>(resources.events, { namespace: ns, fieldSelector: 'involvedObject.name=hot-0,reason=ResetContainerSucceed' });
        return list.items.length > 0 && list.items;
      });
      assert.equal(events[0]!.message, 'reset sidecar container image empty successfully');
      assert.equal(events[0]!.type, 'Normal');

      // Step 3: kubelet restarts sidecar-1 with the empty image; the pod counts as ready again.
      await k.until((pods) => unavailable(ofApp(pods, 'hotupgrade')).length === 0, { what: 'pod ready again' });
      await sets.status('hotupgrade-sidecarset', { matchedPods: 1, updatedPods: 1, readyPods: 1, updatedReadyPods: 1 });
      assert.equal(k.restarts.get('hot-0/sidecar-2'), 1);
      assert.equal(k.restarts.get('hot-0/sidecar-1'), 1);
    } finally {
      kubectl(['delete', 'sidecarset', 'hotupgrade-sidecarset', '--ignore-not-found']);
    }
  });
});
