import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { SidecarContainer, SidecarSet } from '../../api/sidecarset.js';
import { envOf, makeCtx, names, pod1, sidecarSet1 } from './fixtures.js';
import { injectSidecars } from './index.js';
import { mergeContainers, mergeSecrets, toContainer } from './merge.js';

test('Before sidecars precede the app and After ones follow it; init containers go after the pod own (TestSidecarSetPodInjectPolicy)', () => {
  const out = injectSidecars(pod1(), makeCtx([sidecarSet1()]));
  assert.deepEqual(names(out.spec!.containers), ['dns-f', 'nginx', 'log-agent']);
  assert.deepEqual(names(out.spec!.initContainers), ['init-0', 'init-1', 'init-2']);
  for (const c of ['init-1', 'init-2']) assert.deepEqual(envOf(out, c, true), [{ name: 'IS_INJECTED', value: 'true' }]);
  assert.deepEqual(envOf(out, 'dns-f'), [{ name: 'IS_INJECTED', value: 'true' }]);
  assert.deepEqual(envOf(out, 'nginx'), pod1().spec!.containers[0]!.env, 'app containers are untouched');
});

test('injected containers carry no kruise extension fields', () => {
  const out = injectSidecars(pod1(), makeCtx([sidecarSet1()]));
  const dns = out.spec!.containers.find((c) => c.name === 'dns-f') as unknown as Record<string, unknown>;
  for (const f of ['podInjectPolicy', 'upgradeStrategy', 'shareVolumePolicy', 'transferEnv']) assert.equal(f in dns, false, f);
  assert.equal(dns.image, 'dns-f-image:1.0');
});

test('SidecarSets apply in name order whatever order the context lists them', () => {
  const a = sidecarSet1();
  a.metadata!.name = 'a-set';
  a.spec!.containers = [{ name: 'from-a', image: 'a', podInjectPolicy: 'BeforeAppContainer' }];
  delete a.spec!.initContainers;
  const b = structuredClone(a);
  b.metadata!.name = 'b-set';
  b.spec!.containers = [{ name: 'from-b', image: 'b', podInjectPolicy: 'BeforeAppContainer' }];
  const out = injectSidecars(pod1(), makeCtx([b, a]));
  assert.deepEqual(names(out.spec!.containers), ['from-a', 'from-b', 'nginx']);
});

const initSet = (name: string, inits: SidecarContainer[]): SidecarSet => ({ metadata: { name }, spec: { selector: { matchLabels: { app: 'nginx' } }, initContainers: inits } });

test('init containers of several SidecarSets are sorted by name together (TestInjectInitContainerSort)', () => {
  const out = injectSidecars(pod1(), makeCtx([initSet('s1', [{ name: 'init-c', image: 'x' }, { name: 'init-a', image: 'x' }]), initSet('s2', [{ name: 'init-b', image: 'x' }])]));
  assert.deepEqual(names(out.spec!.initContainers), ['init-0', 'init-a', 'init-b', 'init-c']);
});

test('a BeforeAppContainer init container goes in front of the pod init containers', () => {
  const out = injectSidecars(pod1(), makeCtx([initSet('s1', [{ name: 'init-z', image: 'x', podInjectPolicy: 'BeforeAppContainer' }, { name: 'init-y', image: 'x' }])]));
  assert.deepEqual(names(out.spec!.initContainers), ['init-z', 'init-0', 'init-y']);
});

test('a sidecar named like an app container replaces it in place', () => {
  const set = sidecarSet1();
  set.spec!.containers = [{ name: 'nginx', image: 'sidecar-nginx', podInjectPolicy: 'BeforeAppContainer' }];
  const pod = pod1();
  pod.spec!.containers.push({ name: 'other', image: 'o' });
  const out = injectSidecars(pod, makeCtx([set]));
  assert.deepEqual(names(out.spec!.containers), ['nginx', 'other']);
  assert.equal(out.spec!.containers[0]!.image, 'sidecar-nginx');
});

const c = (name: string, podInjectPolicy?: string): SidecarContainer => ({ name, image: name, ...(podInjectPolicy ? { podInjectPolicy } : {}) });
const mergeCases: { name: string; pod: string[]; sidecars: SidecarContainer[]; want: string[] }[] = [
  { name: 'Before sidecars keep their order in front of the app', pod: ['app'], sidecars: [c('s1', 'BeforeAppContainer'), c('s2', 'BeforeAppContainer')], want: ['s1', 's2', 'app'] },
  { name: 'After sidecars keep their order behind the app', pod: ['app'], sidecars: [c('s1', 'AfterAppContainer'), c('s2', 'AfterAppContainer')], want: ['app', 's1', 's2'] },
  { name: 'an unset inject policy means after', pod: ['app'], sidecars: [c('s1')], want: ['app', 's1'] },
  { name: 'mixed policies split around all app containers', pod: ['a1', 'a2'], sidecars: [c('s1', 'AfterAppContainer'), c('s2', 'BeforeAppContainer')], want: ['s2', 'a1', 'a2', 's1'] },
  { name: 'an existing sidecar keeps its position whatever its policy', pod: ['a1', 's1', 'a2'], sidecars: [c('s1', 'BeforeAppContainer')], want: ['a1', 's1', 'a2'] },
  { name: 'a pod without containers gets only sidecars', pod: [], sidecars: [c('s1', 'AfterAppContainer'), c('s2', 'BeforeAppContainer')], want: ['s2', 's1'] },
];
for (const tc of mergeCases) {
  test(`mergeContainers: ${tc.name} (TestMergeSidecarContainers)`, () => {
    assert.deepEqual(names(mergeContainers(tc.pod.map((n) => ({ name: n, image: n })), tc.sidecars)), tc.want);
  });
}

test('only volumes referenced by sidecar mounts are appended, after the pod volumes (TestSidecarVolumesAppend)', () => {
  const out = injectSidecars(pod1(), makeCtx([sidecarSet1()]));
  assert.deepEqual(names(out.spec!.volumes), ['volume-a', 'volume-b', 'volume-1']);
});

test('a pod volume wins over a same-named SidecarSet volume, and the first SidecarSet wins among sets', () => {
  const s1 = sidecarSet1();
  s1.spec!.containers![1]!.volumeMounts = [{ name: 'volume-a', mountPath: '/x' }];
  s1.spec!.volumes!.push({ name: 'volume-a', hostPath: { path: '/tmp' } });
  const s2 = sidecarSet1();
  s2.metadata!.name = 'sidecarset2';
  s2.spec = { selector: s1.spec!.selector, containers: [{ name: 'other', image: 'o', volumeMounts: [{ name: 'volume-1', mountPath: '/y' }] }], volumes: [{ name: 'volume-1', hostPath: { path: '/second' } }] };
  const out = injectSidecars(pod1(), makeCtx([s2, s1]));
  assert.deepEqual(out.spec!.volumes, [{ name: 'volume-a', emptyDir: {} }, { name: 'volume-b', emptyDir: {} }, { name: 'volume-1', emptyDir: {} }]);
});

test('image pull secrets: pod ones de-duplicated first, then new SidecarSet ones (TestMergeSidecarSecrets)', () => {
  const pod = [{ name: 'p1' }, { name: 'p2' }, { name: 'p1' }];
  const sidecar = [{ name: 's1' }, { name: 'p2' }, { name: 's2' }];
  assert.deepEqual(mergeSecrets(pod, sidecar), [{ name: 'p1' }, { name: 'p2' }, { name: 's1' }, { name: 's2' }]);
  const set = sidecarSet1();
  set.spec!.imagePullSecrets = sidecar;
  const p = pod1();
  p.spec!.imagePullSecrets = pod;
  assert.deepEqual(injectSidecars(p, makeCtx([set])).spec!.imagePullSecrets, [{ name: 'p1' }, { name: 'p2' }, { name: 's1' }, { name: 's2' }]);
});

test('same-named containers from two SidecarSets are both appended (the apiserver then rejects the pod, as upstream)', () => {
  const a = sidecarSet1();
  a.metadata!.name = 'a';
  a.spec = { selector: a.spec!.selector, containers: [{ name: 'dup', image: 'a' }] };
  const b = structuredClone(a);
  b.metadata!.name = 'b';
  assert.deepEqual(names(injectSidecars(pod1(), makeCtx([a, b])).spec!.containers), ['nginx', 'dup', 'dup']);
});

test('a manifest copied from an injected pod is processed again: sidecars replaced in place, no duplicates', () => {
  const once = injectSidecars(pod1(), makeCtx([sidecarSet1()]));
  const twice = injectSidecars(once, makeCtx([sidecarSet1()]));
  assert.deepEqual(names(twice.spec!.containers), ['dns-f', 'nginx', 'log-agent']);
  assert.deepEqual(names(twice.spec!.initContainers), ['init-0', 'init-1', 'init-2']);
  assert.deepEqual(twice.spec!.volumes, once.spec!.volumes);
  assert.equal(twice.metadata!.annotations!['kruise.io/sidecarset-injected-list'], 'sidecarset1');
});

test('toContainer keeps the corev1 fields in order and drops kruise extension fields and an empty image', () => {
  const s = JSON.parse('{"name":"a","podInjectPolicy":"BeforeAppContainer","image":"","env":[],"upgradeStrategy":{},"shareVolumePolicy":{},"shareVolumeDevicePolicy":{},"transferEnv":[],"resourcesPolicy":{},"__proto__":{"x":1},"ports":[]}');
  const c = toContainer(s);
  assert.equal(JSON.stringify(c), '{"name":"a","env":[],"__proto__":{"x":1},"ports":[]}');
  assert.equal(Object.getPrototypeOf(c), Object.prototype);
  assert.equal(toContainer({ name: 'b', image: 'i:1' }).image, 'i:1');
});
