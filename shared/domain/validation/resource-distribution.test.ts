import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import yaml from 'js-yaml';
import type { ResourceDistribution } from '../../api/resource-distribution.js';
import { formatViolations } from '../../errors.js';
import { validateResourceDistribution } from './resource-distribution.js';

const secret = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'test-secret-1' }, type: 'kubernetes.io/basic-auth', stringData: { username: 'admin', password: 't0p-Secret' } };
const configMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'game-demo' }, data: { player_initial_lives: '3' } };
const rd = (resource: unknown, targets: NonNullable<ResourceDistribution['spec']>['targets'] = {}): ResourceDistribution => ({
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'ResourceDistribution',
  metadata: { name: 'test-resource-distribution' },
  spec: {
    resource: resource as Record<string, unknown>,
    targets: {
      excludedNamespaces: { list: [{ name: 'ns-3' }] },
      includedNamespaces: { list: [{ name: 'ns-1' }, { name: 'ns-2' }] },
      namespaceLabelSelector: { matchLabels: { environment: 'develop' } },
      ...targets,
    },
  },
});

describe('validateResourceDistribution: success cases', () => {
  it('a Secret distributor is valid', () => assert.deepEqual(validateResourceDistribution(rd(secret), undefined), []));
  it('a ConfigMap distributor is valid', () => assert.deepEqual(validateResourceDistribution(rd(configMap), undefined), []));
  it('an update adding an included namespace is valid', () => {
    const old = rd(secret);
    const next = structuredClone(old);
    next.spec!.targets.includedNamespaces!.list!.push({ name: 'ns-4' });
    assert.deepEqual(validateResourceDistribution(next, old), []);
  });
  it('an update changing only the data is valid', () => {
    assert.deepEqual(validateResourceDistribution(rd({ ...secret, stringData: { username: 'root' } }), rd(secret)), []);
  });
});

describe('validateResourceDistribution: error cases', () => {
  const cases: { name: string; obj: ResourceDistribution; old?: ResourceDistribution; dryRunError?: string; labels?: Record<string, Record<string, string>>; errs: string[] }[] = [
    { name: 'kube-system listed explicitly is refused', obj: rd(secret, { includedNamespaces: { list: [{ name: 'ns-1' }, { name: 'kube-system' }] } }),
      errs: ['spec.targets.includedNamespaces: Forbidden: namespace "kube-system" is never a distribution target: kube-* namespaces belong to the cluster'] },
    { name: 'a namespace labelled control-plane=openkruise listed explicitly is refused', obj: rd(configMap, { includedNamespaces: { list: [{ name: 'kruise-system' }] } }),
      labels: { 'kruise-system': { 'control-plane': 'openkruise' } },
      errs: ['spec.targets.includedNamespaces: Forbidden: namespace "kruise-system" is never a distribution target: namespaces labelled control-plane=openkruise belong to kruise'] },
    { name: 'a service-account token Secret is refused', obj: rd({ ...secret, type: 'kubernetes.io/service-account-token' }),
      errs: ['spec.resource.type: Forbidden: a Secret of type kubernetes.io/service-account-token cannot be distributed'] },
    { name: 'finalizers and ownerReferences in spec.resource are refused', obj: rd({ ...configMap, metadata: { name: 'c', finalizers: ['x/y'], ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: 'p', uid: 'u' }] } }),
      errs: ['spec.resource.metadata.finalizers: Forbidden: finalizers cannot be distributed', 'spec.resource.metadata.ownerReferences: Forbidden: ownerReferences cannot be distributed'] },
    { name: 'an empty resource is one error', obj: rd(undefined), errs: ['spec: Invalid value: null: empty resource is not allowed'] },
    { name: 'a resource that is not an object cannot be decoded', obj: rd('something is wrong....!#@$'), errs: ['spec: Internal error: failed to deserialize resource, please check your spec.resource, err json: cannot unmarshal non-object into Go value of type map[string]interface {}'] },
    { name: 'a resource without kind cannot be decoded', obj: rd({ apiVersion: 'v1', metadata: { name: 'x' } }), errs: [`spec: Internal error: failed to deserialize resource, please check your spec.resource, err Object 'Kind' is missing in spec.resource`] },
    { name: 'a Deployment is an unsupported kind', obj: rd({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' } }), errs: ['unknown or unsupported resource GroupKind, only support [Secret ConfigMap]'] },
    { name: 'renaming the resource on update is refused', obj: rd({ ...secret, metadata: { name: 'test-secret-modified-name' } }), old: rd(secret), errs: ['spec.resource: Invalid value: null: resource apiVersion, kind, and name are immutable'] },
    { name: 'changing the kind on update is refused', obj: rd({ ...configMap, metadata: { name: 'test-secret-1' } }), old: rd(secret), errs: ['spec.resource: Invalid value: null: resource apiVersion, kind, and name are immutable'] },
    { name: 'a failed dry-run is reported', obj: rd(secret), dryRunError: 'Secret "x" is invalid', errs: ['spec.resource: Internal error: failed to dry-run to validate spec.resource, error: Secret "x" is invalid'] },
    { name: 'an invalid included namespace name is refused', obj: rd(secret, { includedNamespaces: { list: [{ name: 'Bad_NS' }] } }), errs: ['spec.targets.includedNamespaces: Invalid value'] },
    {
      name: 'a namespace both included and excluded is ambiguous',
      obj: rd(secret, { includedNamespaces: { list: [{ name: 'ns-1' }, { name: 'ns-3' }] } }),
      errs: ['ambiguous targets because namespace [ns-3] is in both IncludedNamespaces.List and ExcludedNamespaces.List'],
    },
    { name: 'an invalid namespaceLabelSelector is refused', obj: rd(secret, { namespaceLabelSelector: { matchExpressions: [{ key: 'a', operator: 'In' }] } }), errs: ['labelSelectorAsSelector error: '] },
    { name: 'an upper-case RD name is not a DNS subdomain', obj: { ...rd(secret), metadata: { name: 'Bad' } }, errs: ['metadata.name: Invalid value: "Bad"'] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const errs = validateResourceDistribution(c.obj, c.old, { ...(c.dryRunError === undefined ? {} : { dryRunError: c.dryRunError }), namespaceLabels: (n) => c.labels?.[n] });
      assert.equal(errs.length, c.errs.length, formatViolations(errs));
      errs.forEach((e, i) => assert.ok(formatViolations([e]).includes(c.errs[i]!), `${formatViolations([e])} should contain ${c.errs[i]}`));
    });
  }
});

describe('no content of spec.resource in any message (review M1)', () => {
  const planted = 'PLANTED-9f1c-SECRET';
  const b64 = Buffer.from(planted).toString('base64');
  const bad = [
    { apiVersion: 'v1', metadata: { name: 'x' }, data: { p: b64 }, stringData: { t: planted } },
    { kind: 'Secret', metadata: { name: 'x' }, data: { p: b64 }, stringData: { t: planted } },
    { apiVersion: 'apps/v1', kind: 'Secret', metadata: { name: 'x' }, data: { p: b64 }, stringData: { t: planted } },
    { apiVersion: 'v1', kind: 'Secret', type: 'kubernetes.io/service-account-token', metadata: { name: 'x', finalizers: ['a/b'] }, data: { p: b64 }, stringData: { t: planted } },
  ];
  for (const [i, resource] of bad.entries()) {
    it(`bad resource ${i}: refused without its data`, () => {
      const text = formatViolations(validateResourceDistribution(rd(resource), rd(secret)));
      assert.ok(text.length > 0);
      assert.ok(!text.includes(planted) && !text.includes(b64), text);
    });
  }
});

describe('the ResourceDistribution example', () => {
  it('12-resourcedistribution.yaml validates', () => {
    const doc = yaml.load(readFileSync(new URL('../../../e2e/cluster/examples/12-resourcedistribution.yaml', import.meta.url), 'utf8')) as ResourceDistribution;
    assert.deepEqual(validateResourceDistribution(doc, undefined), []);
  });
});
