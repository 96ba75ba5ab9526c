// resourcesPolicy at injection (spec/openkruise-v1.9.md §3.2) and gate EnableSortSidecarContainerByName (§4).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Container, Pod } from '../../api/meta.js';
import type { SidecarContainer, SidecarSet } from '../../api/sidecarset.js';
import { AdmissionDeniedError } from '../../errors.js';
import { makeCtx, names } from './fixtures.js';
import { injectSidecars } from './index.js';
import { mergeContainers, sortByName } from './merge.js';

const app = (name: string, cpu: string, memory: string, extra: Partial<Container> = {}): Container =>
  ({ name, image: 'app', resources: { limits: { cpu, memory }, requests: { cpu: '100m', memory: '100Mi' } }, ...extra });
const pod = (containers: Container[], initContainers?: Container[]): Pod =>
  ({ metadata: { name: 'p', namespace: 'default', labels: { app: 'web' } }, spec: { containers, ...(initContainers ? { initContainers } : {}) } });

function set(name: string, containers: SidecarContainer[], extra: Partial<NonNullable<SidecarSet['spec']>> = {}, resourceVersion?: string): SidecarSet {
  return { metadata: { name, ...(resourceVersion ? { resourceVersion } : {}) }, spec: { selector: { matchLabels: { app: 'web' } }, containers, ...extra } };
}

const proxy = (over: Partial<SidecarContainer> = {}): SidecarContainer => ({
  name: 'proxy',
  image: 'proxy:1',
  podInjectPolicy: 'BeforeAppContainer',
  resourcesPolicy: {
    targetContainersMode: 'sum',
    targetContainersNameRegex: '^app',
    resourcesExpr: { limits: { cpu: 'max(cpu*50%, 50m)', memory: 'memory*25%' }, requests: { cpu: 'cpu*10%', memory: '64Mi' } },
  },
  ...over,
});

const resourcesOf = (p: Pod, name: string, init = false) => (init ? p.spec!.initContainers : p.spec!.containers)!.find((c) => c.name === name)?.resources;

test('the injected sidecar gets the resources its policy computes from the matching app containers', () => {
  const out = injectSidecars(pod([app('app-a', '1', '1Gi'), app('app-b', '500m', '1Gi'), app('db', '4', '8Gi')]), makeCtx([set('mesh', [proxy()])]));
  assert.deepEqual(names(out.spec!.containers), ['proxy', 'app-a', 'app-b', 'db']);
  assert.deepEqual(resourcesOf(out, 'proxy'), { limits: { cpu: '750m', memory: '512Mi' }, requests: { cpu: '20m', memory: '64Mi' } });
  assert.equal('resourcesPolicy' in out.spec!.containers[0]!, false);
});

test('the computed resources replace what the SidecarSet wrote, and a cached SidecarSet is computed per pod', () => {
  const sets = [set('mesh', [proxy({ resources: { limits: { cpu: '9' } } })], {}, '7')];
  const small = injectSidecars(pod([app('app', '200m', '200Mi')]), makeCtx(sets));
  const large = injectSidecars(pod([app('app', '2', '2Gi')]), makeCtx(sets));
  assert.deepEqual(resourcesOf(small, 'proxy'), { limits: { cpu: '100m', memory: '50Mi' }, requests: { cpu: '10m', memory: '64Mi' } });
  assert.deepEqual(resourcesOf(large, 'proxy'), { limits: { cpu: '1', memory: '512Mi' }, requests: { cpu: '10m', memory: '64Mi' } });
});

test('both hot-upgrade twins get the computed resources', () => {
  const hot = proxy({ upgradeStrategy: { upgradeType: 'HotUpgrade', hotUpgradeEmptyImage: 'empty:1' } });
  const out = injectSidecars(pod([app('app', '2', '2Gi')]), makeCtx([set('mesh', [hot])]));
  for (const twin of ['proxy-1', 'proxy-2']) assert.deepEqual(resourcesOf(out, twin)?.limits, { cpu: '1', memory: '512Mi' }, twin);
});

test('a native-sidecar init container with a policy aggregates the pod containers and native sidecars', () => {
  const init = proxy({ name: 'init-proxy', restartPolicy: 'Always', resourcesPolicy: { targetContainersMode: 'max', targetContainersNameRegex: '.*', resourcesExpr: { limits: { cpu: 'cpu' } } } });
  const out = injectSidecars(pod([app('app', '2', '2Gi')], [app('log', '3', '1Gi', { restartPolicy: 'Always' }), app('setup', '8', '1Gi')]), makeCtx([set('mesh', [], { initContainers: [init] })]));
  assert.deepEqual(resourcesOf(out, 'init-proxy', true), { limits: { cpu: '3' } });
});

test('containers of every matched SidecarSet are excluded from the targets, even when the pod already has them', () => {
  const other = set('other', [{ name: 'app-agent', image: 'agent:1', podInjectPolicy: 'AfterAppContainer' }]);
  const out = injectSidecars(pod([app('app', '1', '1Gi'), app('app-agent', '7', '7Gi')]), makeCtx([set('mesh', [proxy()]), other]));
  assert.deepEqual(resourcesOf(out, 'proxy')?.limits, { cpu: '500m', memory: '256Mi' });
});

test('a policy that cannot be applied refuses the pod with upstream message', () => {
  const bad = proxy({ resourcesPolicy: { targetContainersMode: 'sum', targetContainersNameRegex: '^nothing$', resourcesExpr: { limits: { cpu: 'cpu' } } } });
  assert.throws(() => injectSidecars(pod([app('app', '1', '1Gi')]), makeCtx([set('mesh', [bad])])),
    (e: unknown) => e instanceof AdmissionDeniedError && e.code === 400 && e.message === 'no containers match the regex pattern "^nothing$"');
});

test('pod UPDATE never evaluates a policy', () => {
  const bad = proxy({ resourcesPolicy: { targetContainersMode: 'sum', targetContainersNameRegex: '^nothing$', resourcesExpr: { limits: { cpu: 'cpu' } } } });
  const p = pod([app('app', '1', '1Gi')]);
  assert.deepEqual(injectSidecars(p, makeCtx([set('mesh', [bad])], { operation: 'UPDATE' })), p);
});

// EnableSortSidecarContainerByName: sidecarset_test.go TestMergeSidecarContainers, with sorting applied.
const built = (): SidecarContainer[] => [
  { name: 'sidecar-2', podInjectPolicy: 'AfterAppContainer' },
  { name: 'sidecar-1', podInjectPolicy: 'AfterAppContainer' },
  { name: 'new-sidecar-1', podInjectPolicy: 'BeforeAppContainer' },
];
const mergeVectors: { pod: string[]; want: string[] }[] = [
  { pod: ['sidecar-1', 'app-container', 'sidecar-2'], want: ['new-sidecar-1', 'sidecar-1', 'app-container', 'sidecar-2'] },
  { pod: ['app-container'], want: ['new-sidecar-1', 'app-container', 'sidecar-1', 'sidecar-2'] },
  { pod: [], want: ['new-sidecar-1', 'sidecar-1', 'sidecar-2'] },
];
for (const v of mergeVectors) {
  test(`sorted merge (TestMergeSidecarContainers): pod [${v.pod.join(', ')}]`, () => {
    assert.deepEqual(names(mergeContainers(v.pod.map((name) => ({ name })), sortByName(built()))), v.want);
  });
}

test('EnableSortSidecarContainerByName orders the sidecars of all SidecarSets by name; off, SidecarSet order stands', () => {
  const a = set('a-set', [{ name: 'zz', image: 'z', podInjectPolicy: 'AfterAppContainer' }, { name: 'mm', image: 'm', podInjectPolicy: 'AfterAppContainer' }]);
  const b = set('b-set', [
    { name: 'aa', image: 'a', podInjectPolicy: 'AfterAppContainer' },
    { name: 'hot', image: 'h', podInjectPolicy: 'BeforeAppContainer', upgradeStrategy: { upgradeType: 'HotUpgrade', hotUpgradeEmptyImage: 'e' } },
    { name: 'early', image: 'e', podInjectPolicy: 'BeforeAppContainer' },
  ]);
  const p = pod([app('app', '1', '1Gi')]);
  assert.deepEqual(names(injectSidecars(p, makeCtx([a, b])).spec!.containers), ['hot-1', 'hot-2', 'early', 'app', 'zz', 'mm', 'aa']);
  assert.deepEqual(names(injectSidecars(p, makeCtx([a, b], { sortSidecarContainersByName: true })).spec!.containers), ['early', 'hot-1', 'hot-2', 'app', 'aa', 'mm', 'zz']);
});

test('init containers are sorted by name with or without the gate', () => {
  const inits = [{ name: 'init-b', image: 'b' }, { name: 'init-a', image: 'a' }];
  for (const sortSidecarContainersByName of [false, true]) {
    const out = injectSidecars(pod([app('app', '1', '1Gi')]), makeCtx([set('s', [], { initContainers: inits })], { sortSidecarContainersByName }));
    assert.deepEqual(names(out.spec!.initContainers), ['init-a', 'init-b']);
  }
});
