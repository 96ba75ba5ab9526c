// CloneSet image pre-download (PreDownloadImageForInPlaceUpdate): the pure decision, and the controller against the
// fake apiserver — NodeImage tags owned by the CloneSet, `parallelism` nodes at a time, pull secrets copied for the
// daemon and released when the update is over.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { V1Secret } from '@kubernetes/client-node';
import type { CloneSet } from '../../shared/api/cloneset.js';
import type { Pod } from '../../shared/api/meta.js';
import type { NodeImage } from '../../shared/api/node-image.js';
import { defaultCloneSet } from '../../shared/domain/cloneset/defaults.js';
import { pod } from '../../shared/domain/cloneset/fixtures.js';
import { newRevision } from '../../shared/domain/cloneset/revision.js';
import { resolveStrategy } from '../../shared/domain/cloneset/strategy-values.js';
import { resources } from '../../shared/kube/resources.js';
import { fakeDeps } from '../testing/deps.js';
import { FakeCluster, RecordingQueue } from '../testing/fake-cluster.js';
import { cloneSetController } from './controller.js';
import { planPreDownload, PreDownloadMinUpdatedReadyPodsAnnotation, PreDownloadParallelismAnnotation } from './predownload.js';

const IMAGE = 'openkruise/hotupgrade-sample:busybox';
const seed = (edit: (cs: CloneSet) => void = () => {}): CloneSet => {
  const cs = defaultCloneSet({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', metadata: { name: 'busybox', namespace: 'default', uid: 'uid-cs', generation: 1 }, spec: {
    replicas: 5, selector: { matchLabels: { app: 'hotupgrade' } },
    template: { metadata: { labels: { app: 'hotupgrade' } }, spec: { containers: [{ name: 'busybox', image: IMAGE }] } } } });
  cs.spec!.updateStrategy = { ...cs.spec!.updateStrategy, type: 'InPlaceIfPossible' };
  edit(cs);
  return cs;
};
const withImage = (cs: CloneSet, image: string): CloneSet => { const c = structuredClone(cs); c.spec!.template.spec!.containers[0]!.image = image; return c; };
const ni = (name: string, pulled: string[] = []): NodeImage => ({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'NodeImage', metadata: { name }, spec: {},
  status: { desired: 0, succeeded: 0, failed: 0, pulling: 0, waiting: 0, imageStatuses: Object.fromEntries(pulled.map((r) => [r.split(':')[0]!, { tags: [{ tag: r.split(':')[1]!, phase: 'Succeeded' }] }])) } });

describe('planPreDownload', () => {
  const v1 = seed();
  const [r1, r2] = [newRevision(v1, 1, 0), newRevision(withImage(v1, `${IMAGE}2`), 2, 0)];
  const pods = [0, 1, 2, 3, 4].map((i) => pod({ name: `p${i}`, rev: r1.metadata.name, nodeName: `n${i}` }));
  const nodes: Record<string, NodeImage> = Object.fromEntries([0, 1, 2, 3, 4].map((i) => [`n${i}`, ni(`n${i}`)]));
  const input = (cs: CloneSet, over: Partial<Parameters<typeof planPreDownload>[0]> = {}) =>
    ({ cs, current: r1, update: r2, strategy: resolveStrategy(cs), pods, nodeImage: (n: string) => nodes[n], ...over });

  it('one node at a time by default, the next node once the first finished, none where the image is already', () => {
    const plan = planPreDownload(input(v1));
    assert.equal(plan.kind, 'pull');
    assert.deepEqual(plan.kind === 'pull' && plan.tags, [{ node: 'n0', image: { name: 'openkruise/hotupgrade-sample', tag: 'busybox2' } }]);
    const after = planPreDownload(input(v1, { nodeImage: (n) => (n === 'n0' || n === 'n1' ? ni(n, ['openkruise/hotupgrade-sample:busybox2']) : nodes[n]) }));
    assert.deepEqual(after.kind === 'pull' && after.tags.map((t) => t.node), ['n2']);
  });

  it('what upstream ignores: equal revisions, ReCreate, 3 replicas or fewer, everything in one batch', () => {
    assert.equal(planPreDownload(input(v1, { update: r1 })).kind, 'none');
    assert.equal(planPreDownload(input(seed((c) => { c.spec!.updateStrategy = { type: 'ReCreate' }; }))).kind, 'none');
    assert.equal(planPreDownload(input(seed((c) => { c.spec!.replicas = 3; }))).kind, 'none');
    assert.equal(planPreDownload(input(seed((c) => { c.spec!.updateStrategy = { ...c.spec!.updateStrategy, maxUnavailable: '100%' }; }))).kind, 'none');
  });

  it('min-updated-ready-pods (a number or a percentage of replicas, rounded up) waits for that many updated ready pods', () => {
    const cs = seed((c) => { c.metadata!.annotations = { [PreDownloadMinUpdatedReadyPodsAnnotation]: '40%' }; });
    assert.equal(planPreDownload(input({ ...cs, status: { updateRevision: r2.metadata.name, updatedReadyReplicas: 1 } as never })).kind, 'wait');
    assert.equal(planPreDownload(input({ ...cs, status: { updateRevision: r2.metadata.name, updatedReadyReplicas: 2 } as never })).kind, 'pull');
    // Counted for the update revision only.
    assert.equal(planPreDownload(input({ ...cs, status: { updateRevision: 'older', updatedReadyReplicas: 5 } as never })).kind, 'wait');
  });
});

describe('cloneset-controller with PreDownloadImageForInPlaceUpdate', () => {
  it('pre-downloads the new image on `parallelism` nodes at a time, with the template pull secrets, and releases them when the update is over', async () => {
    const cluster = new FakeCluster();
    cluster.seed(resources.cloneSets, seed((c) => {
      c.metadata!.annotations = { [PreDownloadParallelismAnnotation]: '2' };
      c.spec!.template.spec!.imagePullSecrets = [{ name: 'regcred' }];
    }));
    cluster.seed(resources.secrets, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'regcred', namespace: 'default', uid: 'uid-regcred' }, data: { '.dockerconfigjson': 'e30=' } });
    for (let i = 0; i < 5; i++) cluster.seed(resources.nodeImages, ni(`n${i}`));
    const queue = new RecordingQueue();
    const f = fakeDeps(cluster, { FEATURE_GATES: 'PreDownloadImageForInPlaceUpdate=true' });
    const fn = cloneSetController.setup(f.deps, queue);
    const reconcile = (key: string) => fn(key, f.ctx);
    const pods = () => cluster.informers.cache<Pod>(resources.pods).list();
    const nodeImage = (n: string) => cluster.get<NodeImage>(resources.nodeImages, n)!;
    const ours = () => [0, 1, 2, 3, 4].map((i) => `n${i}`).filter((n) => nodeImage(n).spec?.images?.['openkruise/hotupgrade-sample']?.tags
      .some((t) => t.tag === 'busybox2' && t.ownerReferences?.some((o) => o.kind === 'CloneSet' && o.uid === 'uid-cs')));
    const copies = () => cluster.informers.cache<V1Secret>(resources.secrets).list().filter((s) => s.metadata?.namespace === f.deps.config.daemonConfigNamespace);
    /** Kubelet: pods bound to n0…n4 and running their spec images, Ready. */
    const kubelet = async () => {
      for (const [i, p] of [...pods()].sort((a, b) => a.metadata!.name!.localeCompare(b.metadata!.name!)).entries()) {
        const next = structuredClone(p);
        next.spec!.nodeName ??= `n${i}`;
        next.status = { phase: 'Running', conditions: [...(next.spec?.readinessGates ?? []).map((g) => ({ type: g.conditionType, status: 'True' })), { type: 'Ready', status: 'True' }],
          containerStatuses: next.spec!.containers.map((c) => ({ name: c.name, image: c.image!, imageID: `id-${c.image}`, ready: true, restartCount: 0 })) } as never;
        await cluster.rest.replace(resources.pods, next);
      }
    };
    const settle = async () => { for (let i = 0; i < 5; i++) { queue.add('default/busybox'); await queue.drain(reconcile); await kubelet(); } };
    await settle();
    assert.equal(pods().length, 5);
    assert.deepEqual(ours(), []);

    // A new image held back by partition: nothing is updated, the nodes pull ahead two at a time.
    const cs = withImage(cluster.get<CloneSet>(resources.cloneSets, 'busybox', 'default')!, `${IMAGE}2`);
    cs.spec!.updateStrategy = { ...cs.spec!.updateStrategy, partition: 5 };
    await cluster.rest.replace(resources.cloneSets, cs);
    queue.add('default/busybox');
    await queue.drain(reconcile);
    assert.equal(ours().length, 2);
    const tag = nodeImage(ours()[0]!).spec!.images!['openkruise/hotupgrade-sample']!;
    assert.equal(tag.tags[0]!.pullPolicy?.timeoutSeconds, 600);
    const [copy] = copies();
    assert.ok(copy, 'a copy of regcred for the daemon');
    assert.deepEqual(tag.pullSecrets, [{ namespace: f.deps.config.daemonConfigNamespace, name: copy.metadata!.name, mode: 'batch' }]);
    assert.ok(pods().every((p) => p.spec!.containers[0]!.image === IMAGE), 'the pre-download updates no pod');

    // Still pulling: no third node. One node done: the next one starts.
    queue.add('default/busybox');
    await queue.drain(reconcile);
    assert.equal(ours().length, 2);
    const done = nodeImage(ours()[0]!);
    await cluster.rest.replace(resources.nodeImages, { ...done, status: { ...done.status!, imageStatuses: { 'openkruise/hotupgrade-sample': { tags: [{ tag: 'busybox2', phase: 'Succeeded' }] } } } }, { subresource: 'status' });
    await queue.drain(reconcile);
    assert.equal(ours().length, 3, 'the NodeImage change woke the CloneSet');

    // The update goes through: revisions equal again, the copy is released.
    const all = cluster.get<CloneSet>(resources.cloneSets, 'busybox', 'default')!;
    await cluster.rest.replace(resources.cloneSets, { ...all, spec: { ...all.spec!, updateStrategy: { ...all.spec!.updateStrategy, partition: 0 } } });
    for (let i = 0; i < 8; i++) await settle();
    assert.ok(pods().every((p) => p.spec!.containers[0]!.image === `${IMAGE}2`));
    assert.deepEqual(copies(), []);
  });
});
