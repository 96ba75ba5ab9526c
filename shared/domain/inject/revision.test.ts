import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ControllerRevisionLike } from '../../api/controller-revision.js';
import type { Pod } from '../../api/meta.js';
import type { SidecarSet } from '../../api/sidecarset.js';
import { SidecarSetCustomVersionLabel, SidecarSetHashAnnotation, SidecarSetNameLabel } from '../../api/sidecarset.js';
import { AdmissionDeniedError } from '../../errors.js';
import { makeCtx, names, pod1 } from './fixtures.js';
import { injectSidecars } from './index.js';

const canarySet = (): SidecarSet => ({
  metadata: { name: 'sidecarset1', annotations: { [SidecarSetHashAnnotation]: 'latest-hash' } },
  spec: {
    selector: { matchLabels: { app: 'nginx' } },
    containers: [{ name: 'sidecar', image: 'sidecar-image:canary', podInjectPolicy: 'BeforeAppContainer' }],
    updateStrategy: { selector: { matchLabels: { canary: 'true' } } },
    injectionStrategy: { revision: { customVersion: 'stable', policy: 'Partial' } },
  },
  status: { matchedPods: 0, updatedPods: 0, readyPods: 0, latestRevision: 'sidecarset1-latest' },
});

const rev = (name: string, revision: number, image: string, extra: object = {}): ControllerRevisionLike => ({
  metadata: { name, labels: { [SidecarSetNameLabel]: 'sidecarset1', [SidecarSetCustomVersionLabel]: 'stable' }, annotations: { [SidecarSetHashAnnotation]: `${name}-hash` } },
  revision,
  data: { spec: { $patch: 'replace', containers: [{ name: 'sidecar', image, podInjectPolicy: 'BeforeAppContainer' }], ...extra } },
});
const revisions = [rev('sidecarset1-old', 1, 'sidecar-image:older'), rev('sidecarset1-stable', 2, 'sidecar-image:stable')];

const imageOf = (pod: Pod) => pod.spec!.containers.find((c) => c.name === 'sidecar')?.image;
const canaryPod = () => {
  const p = pod1();
  p.metadata!.labels!.canary = 'true';
  return p;
};

test('a custom-version revision injects its own containers and init containers (TestInjectionStrategyRevision)', () => {
  const set = canarySet();
  set.spec!.injectionStrategy!.revision!.policy = 'Always';
  const r = rev('sidecarset1-stable', 3, 'sidecar-image:stable', { initContainers: [{ name: 'init-from-rev', image: 'x' }] });
  const out = injectSidecars(pod1(), makeCtx([set], { revisionList: [...revisions, r] }));
  assert.deepEqual(names(out.spec!.containers), ['sidecar', 'nginx']);
  assert.deepEqual(names(out.spec!.initContainers), ['init-0', 'init-from-rev']);
  const hash = JSON.parse(out.metadata!.annotations![SidecarSetHashAnnotation]!);
  assert.equal(hash.sidecarset1.hash, 'sidecarset1-stable-hash', 'hash comes from the revision annotations');
  assert.equal(hash.sidecarset1.controllerRevision, 'sidecarset1-stable');
});

test('the highest revision number wins a custom-version lookup', () => {
  const set = canarySet();
  set.spec!.injectionStrategy!.revision!.policy = 'Always';
  assert.equal(imageOf(injectSidecars(pod1(), makeCtx([set], { revisionList: [...revisions].reverse() }))), 'sidecar-image:stable');
});

test('revisionName selects that ControllerRevision', () => {
  const set = canarySet();
  set.spec!.injectionStrategy!.revision = { revisionName: 'sidecarset1-old' };
  assert.equal(imageOf(injectSidecars(pod1(), makeCtx([set], { revisionList: revisions }))), 'sidecar-image:older');
});

test('a missing revision refuses the pod even when the latest would have been chosen', () => {
  assert.throws(
    () => injectSidecars(canaryPod(), makeCtx([canarySet()], { revisionList: [] })),
    (e: unknown) => e instanceof AdmissionDeniedError && /customVersion "stable": no such ControllerRevision/.test(e.message),
  );
});

const partialCases: { name: string; pod: () => Pod; set?: (s: SidecarSet) => void; random?: number; want: string }[] = [
  { name: 'Partial: a pod outside updateStrategy.selector gets the stable revision', pod: pod1, want: 'sidecar-image:stable' },
  { name: 'Partial: a canary pod with integer partition gets the latest', pod: canaryPod, want: 'sidecar-image:canary' },
  { name: 'Partial: partition 100% gives the stable revision', pod: canaryPod, set: (s) => (s.spec!.updateStrategy!.partition = '100%'), random: 0.999, want: 'sidecar-image:stable' },
  { name: 'Partial: partition 0% gives the latest', pod: canaryPod, set: (s) => (s.spec!.updateStrategy!.partition = '0%'), random: 0.3, want: 'sidecar-image:canary' },
  { name: 'Partial: a draw at the partition edge is historical (u <= P)', pod: canaryPod, set: (s) => (s.spec!.updateStrategy!.partition = '30%'), random: 0.3, want: 'sidecar-image:stable' },
  { name: 'Partial: without updateStrategy.selector every pod draws', pod: pod1, set: (s) => { delete s.spec!.updateStrategy!.selector; s.spec!.updateStrategy!.partition = '50%'; }, random: 0.7, want: 'sidecar-image:canary' },
  { name: 'paused upgrades inject the stable revision even for canary pods', pod: canaryPod, set: (s) => (s.spec!.updateStrategy!.paused = true), want: 'sidecar-image:stable' },
  { name: 'policy Always injects the stable revision for canary pods', pod: canaryPod, set: (s) => (s.spec!.injectionStrategy!.revision!.policy = 'Always'), want: 'sidecar-image:stable' },
];
for (const tc of partialCases) {
  test(`${tc.name} (TestCanarySidecarSetInjection)`, () => {
    const set = canarySet();
    tc.set?.(set);
    const random = tc.random ?? 0.5;
    assert.equal(imageOf(injectSidecars(tc.pod(), makeCtx([set], { revisionList: revisions, random: () => random }))), tc.want);
  });
}

test('Partial: a malformed percentage partition refuses the pod', () => {
  const set = canarySet();
  set.spec!.updateStrategy!.partition = 'abc%';
  assert.throws(() => injectSidecars(canaryPod(), makeCtx([set], { revisionList: revisions })), (e: unknown) => e instanceof AdmissionDeniedError && /partition "abc%"/.test(e.message));
});

test('Partial: an invalid updateStrategy selector refuses the pod', () => {
  const set = canarySet();
  set.spec!.updateStrategy!.selector = { matchExpressions: [{ key: 'canary', operator: 'Bad' }] };
  assert.throws(() => injectSidecars(canaryPod(), makeCtx([set], { revisionList: revisions })), (e: unknown) => e instanceof AdmissionDeniedError && /updateStrategy.selector/.test(e.message));
});

test('an empty revisionName is looked up as such and refuses the pod', () => {
  const set = canarySet();
  set.spec!.injectionStrategy!.revision = { revisionName: '', customVersion: 'stable' };
  assert.throws(() => injectSidecars(pod1(), makeCtx([set], { revisionList: revisions })), (e: unknown) => e instanceof AdmissionDeniedError && /revisionName ""/.test(e.message));
});

test('a revision without hash annotations gets hashes computed from the restored SidecarSet', () => {
  const set = canarySet();
  set.spec!.injectionStrategy!.revision!.policy = 'Always';
  const r = rev('sidecarset1-stable', 9, 'sidecar-image:stable');
  delete r.metadata.annotations;
  const out = injectSidecars(pod1(), makeCtx([set], { revisionList: [r] }));
  const hash = JSON.parse(out.metadata!.annotations![SidecarSetHashAnnotation]!).sidecarset1.hash as string;
  assert.match(hash, /^[bcdfghjklmnpqrstvwxz2456789]{64}$/);
});

// upstream HEAD pod/mutating sidecarset.go: a matched canary SidecarSet replaces its base on the pods both select.
test('a matched canary SidecarSet is injected instead of its base; unmatched, the base is injected', () => {
  const base: SidecarSet = { metadata: { name: 'a-base' }, spec: { selector: { matchLabels: { app: 'nginx' } }, containers: [{ name: 'proxy', image: 'proxy:1', podInjectPolicy: 'BeforeAppContainer' }] } };
  const canary: SidecarSet = {
    metadata: { name: 'b-canary', annotations: { 'apps.kruise.io/sidecarset-canary': 'true', 'apps.kruise.io/sidecarset-base': 'a-base' } },
    spec: { selector: { matchLabels: { canary: 'true' } }, updateStrategy: { type: 'NotUpdate' }, containers: [{ name: 'proxy', image: 'proxy:2', podInjectPolicy: 'BeforeAppContainer' }] },
  };
  const onCanary = injectSidecars(canaryPod(), makeCtx([base, canary]));
  assert.deepEqual(onCanary.spec!.containers.map((c) => `${c.name}=${c.image}`), ['proxy=proxy:2', 'nginx=nginx:1.15.1']);
  assert.equal(onCanary.metadata!.annotations!['kruise.io/sidecarset-injected-list'], 'b-canary');
  const onOther = injectSidecars(pod1(), makeCtx([base, canary]));
  assert.deepEqual(onOther.spec!.containers.map((c) => `${c.name}=${c.image}`), ['proxy=proxy:1', 'nginx=nginx:1.15.1']);
});
