// Upstream: pkg/webhook/sidecarset/validating/sidecarset_resources_policy_test.go (TestValidateResourcesPolicy) and the
// resourcesPolicy cases of sidecarset_validating_test.go, with the paths and details of spec/openkruise-v1.9.md §3.6.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ResourcesPolicy, SidecarContainer, SidecarSet } from '../../api/sidecarset.js';
import { aloneContext } from '../../testing/sidecarset-context.js';
import { validateSidecarSet } from './sidecarset.js';

const ctx = aloneContext;
const sidecar = (resourcesPolicy: ResourcesPolicy | undefined, over: Partial<SidecarContainer> = {}): SidecarContainer => ({
  name: 'test-sidecar', image: 'test-image', imagePullPolicy: 'IfNotPresent', terminationMessagePolicy: 'File',
  podInjectPolicy: 'BeforeAppContainer', shareVolumePolicy: { type: 'disabled' }, upgradeStrategy: { upgradeType: 'ColdUpgrade' },
  ...(resourcesPolicy ? { resourcesPolicy } : {}), ...over,
});
const set = (containers: SidecarContainer[], initContainers?: SidecarContainer[]): SidecarSet => ({
  metadata: { name: 'test-sidecarset' },
  spec: { selector: { matchLabels: { app: 'test' } }, updateStrategy: { type: 'NotUpdate' }, containers, ...(initContainers ? { initContainers } : {}) },
});
const policy = (limits?: { cpu?: string; memory?: string }, requests?: { cpu?: string; memory?: string }, regex = '^app.*$', mode = 'sum'): ResourcesPolicy =>
  ({ targetContainersMode: mode, targetContainersNameRegex: regex, resourcesExpr: { ...(limits ? { limits } : {}), ...(requests ? { requests } : {}) } });
const problems = (s: SidecarSet) => validateSidecarSet(s, undefined, ctx).map((v) => `${v.field}: ${v.type}: ${v.detail}`);

const cases: { name: string; obj: SidecarSet; want: string[] }[] = [
  { name: 'valid resources policy with sum mode and both limits and requests',
    obj: set([sidecar(policy({ cpu: 'max(cpu*50%, 50m)', memory: 'max(memory*50%, 100Mi)' }, { cpu: 'max(cpu*50%, 50m)', memory: 'max(memory*50%, 100Mi)' }))]), want: [] },
  { name: 'valid resources policy with max mode and only limits', obj: set([sidecar(policy({ cpu: 'cpu*50%' }, undefined, '^app.*$', 'max'))]), want: [] },
  { name: 'valid resources policy with only requests', obj: set([sidecar(policy(undefined, { cpu: 'max(cpu*50%, 50m)', memory: '100Mi' }, '.*'))]), want: [] },
  { name: 'empty regex', obj: set([sidecar(policy({ cpu: 'cpu*50%' }, undefined, ''))]),
    want: ['spec[0].resourcesPolicy.targetContainersNameRegex: Required value: invalid empty regex'] },
  { name: 'invalid regex', obj: set([sidecar(policy({ cpu: 'cpu*50%' }, undefined, '[invalid(regex'))]),
    want: ['spec[0].resourcesPolicy.targetContainersNameRegex: Invalid value: invalid regex pattern: error parsing regexp: missing closing ]: `[invalid(regex`'] },
  { name: 'a lookahead is refused as RE2 refuses it', obj: set([sidecar(policy({ cpu: 'cpu' }, undefined, '^(?!sidecar).*'))]),
    want: ['spec[0].resourcesPolicy.targetContainersNameRegex: Invalid value: invalid regex pattern: error parsing regexp: invalid or unsupported Perl syntax: `(?!`'] },
  { name: 'no limits and no requests', obj: set([sidecar(policy())]),
    want: ['spec[0].resourcesPolicy.resourcesExpr: Invalid value: at least one of limits or requests must be configured'] },
  { name: 'empty limits pass and set nothing', obj: set([sidecar(policy({}))]), want: [] },
  { name: 'invalid expression syntax', obj: set([sidecar(policy({ cpu: 'invalid expression @#$' }))]),
    want: ['spec[0].resourcesPolicy.resourcesExpr.limits.cpu: Invalid value: invalid expression: undefined variable: invalid'] },
  { name: 'unclosed function call', obj: set([sidecar(policy({ cpu: 'max(cpu*50%, 50m' }))]),
    want: ['spec[0].resourcesPolicy.resourcesExpr.limits.cpu: Invalid value: invalid expression: parse error: syntax error at line 1, col 17'] },
  { name: 'max with one argument: its error replaces the undefined variable inside it, as upstream', obj: set([sidecar(policy(undefined, { memory: 'max(cpu*50%)' }))]),
    want: ['spec[0].resourcesPolicy.resourcesExpr.requests.memory: Invalid value: invalid expression: max function requires exactly 2 arguments, got 1'] },
  { name: 'max with one argument on cpu', obj: set([sidecar(policy(undefined, { cpu: 'max(cpu*50%)' }))]),
    want: ['spec[0].resourcesPolicy.resourcesExpr.requests.cpu: Invalid value: invalid expression: max function requires exactly 2 arguments, got 1'] },
  { name: 'an undefined variable', obj: set([sidecar(policy({ memory: 'invalidvar * 50%' }))]),
    want: ['spec[0].resourcesPolicy.resourcesExpr.limits.memory: Invalid value: invalid expression: undefined variable: invalidvar'] },
  { name: 'a piecewise expression is valid', obj: set([sidecar(policy({ cpu: '0.5*cpu - 0.3*max(0, cpu-4) + 0.3*max(0, cpu-8)' }))]), want: [] },
  { name: 'quirk: the probe value 1 makes `memory - 100Mi` negative', obj: set([sidecar(policy({ memory: 'memory - 100Mi' }))]),
    want: ['spec[0].resourcesPolicy.resourcesExpr.limits.memory: Invalid value: invalid expression: calculation result is negative: -104857599'] },
  { name: 'quirk: `cpu*2m` passes validation (it fails at pod creation)', obj: set([sidecar(policy({ cpu: 'cpu*2m' }))]), want: [] },
  { name: 'quirk: `cpu - 2` is negative with the probe', obj: set([sidecar(policy({ cpu: 'cpu - 2' }))]),
    want: ['spec[0].resourcesPolicy.resourcesExpr.limits.cpu: Invalid value: invalid expression: calculation result is negative: -1'] },
  { name: 'resources-policy-and-resources-conflict (stops the other checks)', obj: set([sidecar(policy({ cpu: 'cpu*50%' }, undefined, ''), { resources: { limits: { cpu: '100m', memory: '100Mi' } } })]),
    want: ['spec[0].resourcesPolicy: Invalid value: resourcesPolicy and resources cannot be configured together'] },
  { name: 'invalid-target-container-mode: the mode is not checked, the missing regex is', obj: set([sidecar(policy({ cpu: 'cpu*50%' }, undefined, '', 'invalid'))]),
    want: ['spec[0].resourcesPolicy.targetContainersNameRegex: Required value: invalid empty regex'] },
  { name: 'initContainer-with-resources-policy-forbidden', obj: set([sidecar(undefined)], [sidecar(policy({ cpu: 'cpu*50%' }, undefined, '.*'), { name: 'test-init' })]),
    want: ['spec[0].resourcesPolicy: Invalid value: resourcesPolicy is only supported for containers with RestartPolicy Always'] },
  { name: 'native-sidecar-initContainer-with-resources-policy-allowed', obj: set([], [sidecar(policy({ cpu: 'cpu*50%' }, undefined, '.*'), { name: 'test-init', restartPolicy: 'Always' })]), want: [] },
  { name: 'the index is the position in its own list, under spec[] for both lists (upstream quirk)',
    obj: set([sidecar(undefined), sidecar(policy({ cpu: 'cpu(' }), { name: 'second' })], [sidecar(policy({ cpu: '1' }, undefined, ''), { name: 'i0', restartPolicy: 'Always' })]),
    want: [
      'spec[0].resourcesPolicy.targetContainersNameRegex: Required value: invalid empty regex',
      'spec[1].resourcesPolicy.resourcesExpr.limits.cpu: Invalid value: invalid expression: parse error: syntax error at line 1, col 5',
    ] },
];

for (const tc of cases) {
  test(`resourcesPolicy validation: ${tc.name}`, () => assert.deepEqual(problems(tc.obj), tc.want));
}

// TestValidateResourceExpression and the rest of TestValidateResourcesPolicy: [expression, field, problem or ''].
const expressions: [string, 'cpu' | 'memory', 'limits' | 'requests', string][] = [
  ['cpu*50%', 'cpu', 'limits', ''], ['max(cpu*50%, 50m)', 'cpu', 'limits', ''], ['min(cpu*50%, 100m)', 'cpu', 'limits', ''],
  ['max( cpu * 0.5 , 50m )', 'cpu', 'limits', ''], ['memory*50%', 'memory', 'limits', ''], ['max(min(cpu*50%, 100m), 50m)', 'cpu', 'limits', ''],
  ['max(memory*50%, 100Mi)', 'memory', 'limits', ''], ['100Mi', 'memory', 'requests', ''],
  ['invalidvar * 50%', 'cpu', 'limits', 'undefined variable: invalidvar'],
  ['cpu +*/ 50%', 'cpu', 'limits', 'parse error: syntax error at line 1, col 7'],
  ['invalid_cpu_expr', 'cpu', 'requests', 'undefined variable: invalid_cpu_expr'],
  ['bad_memory_expr', 'memory', 'limits', 'undefined variable: bad_memory_expr'],
  ['bad_memory_expr', 'memory', 'requests', 'undefined variable: bad_memory_expr'],
  ['memory*2', 'cpu', 'limits', 'undefined variable: memory'],
];
for (const [expr, variable, kind, problem] of expressions) {
  test(`resourcesPolicy validation: ${kind}.${variable} = ${JSON.stringify(expr)} ${problem ? 'is refused' : 'is valid'}`, () => {
    const p = policy(kind === 'limits' ? { [variable]: expr } : undefined, kind === 'requests' ? { [variable]: expr } : undefined, '^.*');
    const want = problem ? [`spec[0].resourcesPolicy.resourcesExpr.${kind}.${variable}: Invalid value: invalid expression: ${problem}`] : [];
    assert.deepEqual(problems(set([sidecar(p)])), want);
  });
}

test('resourcesPolicy validation: resources.requests alone also conflicts with a policy', () => {
  assert.deepEqual(problems(set([sidecar(policy({ cpu: 'cpu*50%' }), { resources: { requests: { cpu: '50m' } } })])),
    ['spec[0].resourcesPolicy: Invalid value: resourcesPolicy and resources cannot be configured together']);
});

