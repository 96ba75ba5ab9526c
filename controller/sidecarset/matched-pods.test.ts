import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Pod } from '../../shared/api/meta.js';
import { SidecarSetListAnnotation, type SidecarSet } from '../../shared/api/sidecarset.js';
import { TerminalError } from '../../shared/reconcile/types.js';
import { kubelet, makePod, makeSet, NOW } from './fixtures.js';
import { matchedPods, matchingSetNames } from './matched-pods.js';

const set = makeSet();
const pod = (name: string, f: (p: Pod) => void = () => {}) => { const p = kubelet(makePod(name, [set])); f(p); return p; };
const names = (pods: Pod[]) => pods.map((p) => p.metadata?.name);
const scoped = (over: Partial<NonNullable<SidecarSet['spec']>>): SidecarSet => ({ ...set, spec: { ...set.spec, ...over } });
const labels: Record<string, Record<string, string>> = { default: { env: 'prod' }, other: { env: 'dev' } };

const cases: { name: string; set?: SidecarSet; pods: Pod[]; want: string[] }[] = [
  { name: 'injected, selected, active pods with the sidecar, sorted by name', pods: [pod('b'), pod('a')], want: ['a', 'b'] },
  { name: 'a pod not naming the SidecarSet in its injected list is not matched', pods: [pod('a', (p) => (p.metadata!.annotations![SidecarSetListAnnotation] = 'other'))], want: [] },
  { name: 'a pod the selector no longer selects is not matched', pods: [pod('a', (p) => (p.metadata!.labels = { app: 'x' }))], want: [] },
  { name: 'succeeded, failed and deleting pods are not matched', pods: [pod('a', (p) => (p.status!.phase = 'Succeeded')), pod('b', (p) => (p.status!.phase = 'Failed')), pod('c', (p) => (p.metadata!.deletionTimestamp = NOW))], want: [] },
  { name: 'a pod whose sidecar was removed is not matched', pods: [pod('a', (p) => p.spec!.containers.splice(0, 1))], want: [] },
  { name: 'spec.namespace scopes matching', set: scoped({ namespace: 'other' }), pods: [pod('a')], want: [] },
  { name: 'namespaceSelector matching the namespace labels', set: scoped({ namespaceSelector: { matchLabels: { env: 'prod' } } }), pods: [pod('a')], want: ['a'] },
  { name: 'namespaceSelector not matching', set: scoped({ namespaceSelector: { matchLabels: { env: 'dev' } } }), pods: [pod('a')], want: [] },
];
for (const tc of cases) test(tc.name, () => assert.deepEqual(names(matchedPods(tc.set ?? set, tc.pods, (n) => labels[n])), tc.want));

test('an invalid selector is an error no retry can fix', () => {
  const bad = scoped({ selector: { matchExpressions: [{ key: 'app', operator: 'Bogus' }] } });
  assert.throws(() => matchedPods(bad, [pod('a')], () => ({})), (err: Error) => !(err instanceof TerminalError) && /invalid spec.selector/.test(err.message));
});

test('the injected list for a pod lacking one names every matching SidecarSet, sorted; invalid ones are skipped', () => {
  const other = makeSet({ name: 'aaa' });
  const broken = { ...makeSet({ name: 'zzz' }), spec: { ...set.spec, selector: { matchExpressions: [{ key: 'a', operator: 'Bogus' }] } } };
  assert.equal(matchingSetNames(pod('a'), [set, broken, other], () => ({})), 'aaa,scs');
});
