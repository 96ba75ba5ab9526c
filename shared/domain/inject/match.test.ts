import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Pod } from '../../api/meta.js';
import type { SidecarSet } from '../../api/sidecarset.js';
import { AdmissionDeniedError } from '../../errors.js';
import { makeCtx, names, pod1, sidecarSet1 } from './fixtures.js';
import { injectSidecars, type InjectionContext } from './index.js';
import { compiledMatch, indexedNamespaces, matchSkipReason } from './match.js';

const injected = (pod: Pod) => names(pod.spec?.containers).includes('dns-f');

const cases: { name: string; set?: (s: SidecarSet) => void; pod?: (p: Pod) => void; ctx?: Partial<InjectionContext> & { namespaces?: Record<string, Record<string, string>> }; want: boolean }[] = [
  { name: 'a pod whose labels match the selector is injected', want: true },
  { name: 'a pod whose labels do not match gets no sidecar (TestPodHasNoMatchedSidecarSet)', pod: (p) => (p.metadata!.labels = { app: 'doesnt-match' }), want: false },
  { name: 'a paused injection strategy injects nothing (TestInjectionStrategyPaused)', set: (s) => (s.spec!.injectionStrategy = { paused: true }), want: false },
  { name: 'a SidecarSet scoped to another namespace does not apply', set: (s) => (s.spec!.namespace = 'other'), want: false },
  { name: 'a SidecarSet scoped to the pod namespace applies', set: (s) => (s.spec!.namespace = 'default'), want: true },
  {
    name: 'a pod without namespace takes the request namespace for matching',
    set: (s) => (s.spec!.namespace = 'team-a'),
    pod: (p) => delete p.metadata!.namespace,
    ctx: { requestNamespace: 'team-a' },
    want: true,
  },
  { name: 'a pod without any namespace is matched as "default"', set: (s) => (s.spec!.namespace = 'default'), pod: (p) => delete p.metadata!.namespace, want: true },
  {
    name: 'a namespaceSelector matching the namespace labels applies',
    set: (s) => (s.spec!.namespaceSelector = { matchLabels: { env: 'prod' } }),
    ctx: { namespaces: { default: { env: 'prod' } } },
    want: true,
  },
  {
    name: 'a namespaceSelector not matching the namespace labels does not apply',
    set: (s) => (s.spec!.namespaceSelector = { matchLabels: { env: 'prod' } }),
    ctx: { namespaces: { default: { env: 'dev' } } },
    want: false,
  },
  { name: 'a namespaceSelector on a namespace that does not exist does not apply', set: (s) => (s.spec!.namespaceSelector = {}), ctx: { namespaces: {} }, want: false },
  {
    name: 'a v1beta1 namespace (metadata.name selector) applies to its namespace only',
    set: (s) => (s.spec!.namespaceSelector = { matchLabels: { 'kubernetes.io/metadata.name': 'default' } }),
    ctx: { namespaces: { default: { 'kubernetes.io/metadata.name': 'default' } } },
    want: true,
  },
  {
    name: 'a metadata.name selector of another namespace does not apply',
    set: (s) => (s.spec!.namespaceSelector = { matchLabels: { 'kubernetes.io/metadata.name': 'other' } }),
    ctx: { namespaces: { default: { 'kubernetes.io/metadata.name': 'default' } } },
    want: false,
  },
  {
    name: 'an In expression on metadata.name applies to the namespaces it lists; the rest of the selector still decides',
    set: (s) => (s.spec!.namespaceSelector = { matchLabels: { env: 'prod' }, matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'In', values: ['a', 'default'] }] }),
    ctx: { namespaces: { default: { 'kubernetes.io/metadata.name': 'default', env: 'prod' } } },
    want: true,
  },
  {
    name: 'a pod in an indexed namespace still needs the whole namespaceSelector to match',
    set: (s) => (s.spec!.namespaceSelector = { matchLabels: { 'kubernetes.io/metadata.name': 'default', env: 'prod' } }),
    ctx: { namespaces: { default: { 'kubernetes.io/metadata.name': 'default', env: 'dev' } } },
    want: false,
  },
  { name: 'an empty namespaceSelector matches any existing namespace', set: (s) => (s.spec!.namespaceSelector = {}), want: true },
  { name: 'an empty selector {} selects no pod', set: (s) => (s.spec!.selector = {}), want: false },
  { name: 'a missing selector selects no pod', set: (s) => delete s.spec!.selector, want: false },
  { name: 'NotIn selects pods without the label', set: (s) => (s.spec!.selector = { matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['db'] }] }), want: true },
  { name: 'an UPDATE is never injected', ctx: { operation: 'UPDATE' }, want: false },
  { name: 'a Succeeded pod is not injected', pod: (p) => (p.status = { phase: 'Succeeded' }), want: false },
  { name: 'a Failed pod is not injected', pod: (p) => (p.status = { phase: 'Failed' }), want: false },
  { name: 'a pod being deleted is not injected', pod: (p) => (p.metadata!.deletionTimestamp = new Date() as never), want: false },
];

for (const tc of cases) {
  test(tc.name, () => {
    const set = sidecarSet1();
    tc.set?.(set);
    const pod = pod1();
    tc.pod?.(pod);
    const out = injectSidecars(pod, makeCtx([set], tc.ctx));
    assert.equal(injected(out), tc.want);
    if (!tc.want) assert.deepEqual(out, pod, 'a pod that is not injected comes back unchanged');
  });
}

test('an invalid selector operator refuses the pod with a 400 naming the SidecarSet', () => {
  const set = sidecarSet1();
  set.spec!.selector = { matchExpressions: [{ key: 'app', operator: 'Equal', values: ['nginx'] }] };
  assert.throws(
    () => injectSidecars(pod1(), makeCtx([set])),
    (e: unknown) => e instanceof AdmissionDeniedError && e.code === 400 && /sidecarset sidecarset1 has an invalid spec.selector/.test(e.message),
  );
});

test('the input pod and SidecarSets are never modified', () => {
  const pod = pod1();
  const set = sidecarSet1();
  const before = structuredClone({ pod, set });
  const out = injectSidecars(pod, makeCtx([set]));
  assert.notEqual(out, pod);
  assert.deepEqual({ pod, set }, before);
});

test('the §2.5 index: metadata.name matchLabels first, else an In expression on it, else cluster scope', () => {
  const key = 'kubernetes.io/metadata.name';
  assert.deepEqual(indexedNamespaces({ matchLabels: { [key]: 'a' }, matchExpressions: [{ key, operator: 'In', values: ['b'] }] }), new Set(['a']));
  assert.deepEqual(indexedNamespaces({ matchExpressions: [{ key, operator: 'NotIn', values: ['b'] }, { key, operator: 'In', values: ['c', 'd'] }] }), new Set(['c', 'd']));
  assert.equal(indexedNamespaces({ matchLabels: { env: 'prod' } }), undefined);
  assert.equal(indexedNamespaces(undefined), undefined);
});

test('a pod outside the indexed namespaces is skipped without looking the Namespace up', () => {
  const set = sidecarSet1();
  set.spec!.namespaceSelector = { matchLabels: { 'kubernetes.io/metadata.name': 'other' } };
  const asked: string[] = [];
  assert.equal(matchSkipReason(compiledMatch(set), pod1(), 'default', (n) => (asked.push(n), {})), 'namespaceSelector does not match');
  assert.deepEqual(asked, []);
});

// --- compiled matching data, cached per SidecarSet object and resourceVersion ---

const stored = (rv: string) => {
  const s = sidecarSet1();
  s.metadata!.resourceVersion = rv;
  return s;
};

test('a stored SidecarSet is compiled once and reused while its resourceVersion stays', () => {
  const set = stored('10');
  const first = compiledMatch(set);
  assert.equal(compiledMatch(set), first);
  assert.equal(injected(injectSidecars(pod1(), makeCtx([set]))), true);
  assert.equal(compiledMatch(set), first, 'injection used the same compiled entry');
});

test('a SidecarSet that changes (new object from the informer) is matched by its new selector', () => {
  const before = stored('10');
  const after = stored('11');
  after.spec!.selector = { matchLabels: { app: 'other' } };
  assert.equal(injected(injectSidecars(pod1(), makeCtx([before]))), true);
  assert.equal(injected(injectSidecars(pod1(), makeCtx([after]))), false);
  assert.equal(injected(injectSidecars(pod1(), makeCtx([before]))), true);
});

test('the same object with a new resourceVersion is recompiled (selector, pause, namespace)', () => {
  const set = stored('20');
  const first = compiledMatch(set);
  set.spec!.injectionStrategy = { paused: true };
  set.metadata!.resourceVersion = '21';
  assert.notEqual(compiledMatch(set), first);
  assert.equal(injected(injectSidecars(pod1(), makeCtx([set]))), false);
  set.spec!.injectionStrategy = {};
  set.spec!.namespace = 'elsewhere';
  set.metadata!.resourceVersion = '22';
  assert.equal(injected(injectSidecars(pod1(), makeCtx([set]))), false);
  set.spec!.namespace = 'default';
  set.spec!.selector = { matchExpressions: [{ key: 'app', operator: 'Bogus' as never }] };
  set.metadata!.resourceVersion = '23';
  assert.throws(() => injectSidecars(pod1(), makeCtx([set])), (e: unknown) => e instanceof AdmissionDeniedError && e.code === 400);
});

test('a SidecarSet without a resourceVersion is compiled afresh on every call', () => {
  const set = sidecarSet1();
  assert.notEqual(compiledMatch(set), compiledMatch(set));
  assert.equal(injected(injectSidecars(pod1(), makeCtx([set]))), true);
  set.spec!.selector = { matchLabels: { app: 'other' } };
  assert.equal(injected(injectSidecars(pod1(), makeCtx([set]))), false);
});

test('a frozen list (the caches\' view) is prepared once, yet rv-less SidecarSets in it are still read afresh', () => {
  const withRv = stored('30');
  const withoutRv = sidecarSet1();
  withoutRv.metadata!.name = 'sidecarset2';
  withoutRv.spec!.containers = [{ ...withoutRv.spec!.containers![0]!, name: 'other-agent' }];
  const list = Object.freeze([withRv, withoutRv]);
  const containers = () => names(injectSidecars(pod1(), makeCtx(list as never)).spec?.containers);
  assert.deepEqual(containers().sort(), ['dns-f', 'log-agent', 'nginx', 'other-agent']);
  withoutRv.spec!.selector = { matchLabels: { app: 'other' } };
  assert.deepEqual(containers().sort(), ['dns-f', 'log-agent', 'nginx']);
});

test('an invalid selector on a later SidecarSet refuses the pod (400) before an earlier set\'s missing revision (403)', () => {
  const first = sidecarSet1();
  first.metadata!.name = 'a-first';
  first.spec!.injectionStrategy = { revision: { revisionName: 'does-not-exist' } };
  const second = sidecarSet1();
  second.metadata!.name = 'b-second';
  second.spec!.selector = { matchExpressions: [{ key: 'app', operator: 'Bogus' as never }] };
  assert.throws(() => injectSidecars(pod1(), makeCtx([first, second])), (e: unknown) => e instanceof AdmissionDeniedError && e.code === 400 && /b-second/.test(e.message));
  assert.throws(() => injectSidecars(pod1(), makeCtx([first])), (e: unknown) => e instanceof AdmissionDeniedError && e.code === 403);
});
