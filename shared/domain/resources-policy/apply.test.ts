import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Container, Pod } from '../../api/meta.js';
import type { ResourcesPolicy, SidecarSet } from '../../api/sidecarset.js';
import { parseQuantity } from '../quantity-math.js';
import { formatGoQuantity } from '../quantity.js';
import { evaluateResourceExpression, policyResources, ResourcesPolicyError, targetContainers } from './apply.js';

/** A container with limits cpu/memory and requests cpu/memory ('' = not set), as upstream's test table gives them. */
function c(name: string, lc: string, lm: string, rc: string, rm: string, extra: Partial<Container> = {}): Container {
  const list = (cpu: string, memory: string) => {
    const l: Record<string, string> = {};
    if (cpu) l.cpu = cpu;
    if (memory) l.memory = memory;
    return Object.keys(l).length > 0 ? l : undefined;
  };
  const limits = list(lc, lm);
  const requests = list(rc, rm);
  return { name, image: 'app', ...(limits || requests ? { resources: { ...(limits ? { limits } : {}), ...(requests ? { requests } : {}) } } : {}), ...extra };
}
const pod = (containers: Container[], initContainers?: Container[]): Pod => ({ metadata: { name: 'p', namespace: 'default' }, spec: { containers, ...(initContainers ? { initContainers } : {}) } });
const policy = (mode: string, regex: string, limits?: [string, string], requests?: [string, string]): ResourcesPolicy => ({
  targetContainersMode: mode,
  targetContainersNameRegex: regex,
  resourcesExpr: {
    ...(limits ? { limits: { cpu: limits[0], memory: limits[1] } } : {}),
    ...(requests ? { requests: { cpu: requests[0], memory: requests[1] } } : {}),
  },
});
const sidecarSet = (containers: string[], inits: string[] = []): SidecarSet => ({
  metadata: { name: 's' },
  spec: { containers: containers.map((name) => ({ name, image: 'sidecar' })), initContainers: inits.map((name) => ({ name, image: 'sidecar' })) },
});

interface Case { name: string; pod: Pod; policy: ResourcesPolicy; limits?: Record<string, string>; requests?: Record<string, string>; error?: string }

// pkg/webhook/pod/mutating/sidecarset_resources_test.go TestApplyResourcesPolicy (spec/openkruise-v1.9.md §3.7).
const engines = [c('large.engine.v4', '200m', '200Mi', '50m', '100Mi'), c('large.engine.v8', '400m', '400Mi', '100m', '200Mi')];
const cases: Case[] = [
  {
    name: 'sum mode with percentage - basic',
    pod: pod([c('app1', '200m', '200Mi', '50m', '100Mi'), c('app2', '400m', '400Mi', '100m', '200Mi')]),
    policy: policy('sum', '.*', ['cpu*50%', '200Mi'], ['cpu*50%', '100Mi']),
    limits: { cpu: '300m', memory: '200Mi' }, requests: { cpu: '75m', memory: '100Mi' },
  },
  {
    name: 'max mode with expression',
    pod: pod(engines),
    policy: policy('max', '^large.engine.v.*$', ['max(cpu*50%, 50m)', '200Mi'], ['max(cpu*50%, 50m)', '100Mi']),
    limits: { cpu: '200m', memory: '200Mi' }, requests: { cpu: '50m', memory: '100Mi' },
  },
  {
    name: 'regex filter - specific container',
    pod: pod(engines),
    policy: policy('sum', '^large.engine.v4$', ['max(cpu*50%, 50m)', '200Mi'], ['max(cpu*50%, 50m)', '100Mi']),
    limits: { cpu: '100m', memory: '200Mi' }, requests: { cpu: '50m', memory: '100Mi' },
  },
  {
    name: 'no matching containers - should error',
    pod: pod([c('app1', '200m', '', '', '')]),
    policy: policy('sum', '^nonexistent$', ['cpu*50%', '']),
    error: 'no containers match the regex pattern "^nonexistent$"',
  },
  {
    name: 'sum mode - one container without CPU limit (unlimited)',
    pod: pod([c('app1', '200m', '200Mi', '100m', '100Mi'), c('app2', '', '400Mi', '50m', '200Mi')]),
    policy: policy('sum', '.*', ['cpu*50%', 'memory*30%'], ['cpu*30%', 'memory*20%']),
    limits: { memory: '180Mi' }, requests: { cpu: '45m', memory: '60Mi' },
  },
  {
    name: 'max mode - one container without Memory limit (unlimited)',
    pod: pod([c('app1', '200m', '200Mi', '100m', '100Mi'), c('app2', '400m', '', '200m', '')]),
    policy: policy('max', '.*', ['cpu*40%', 'memory*30%'], ['cpu*25%', 'memory*20%']),
    limits: { cpu: '160m' }, requests: { cpu: '50m', memory: '20Mi' },
  },
  {
    name: 'sum mode - container without requests (treated as 0)',
    pod: pod([c('app1', '200m', '200Mi', '100m', '100Mi'), c('app2', '400m', '400Mi', '', '')]),
    policy: policy('sum', '.*', ['cpu*50%', 'memory*30%'], ['cpu*30%', 'memory*20%']),
    limits: { cpu: '300m', memory: '180Mi' }, requests: { cpu: '30m', memory: '20Mi' },
  },
  {
    name: 'init-container with resource policy (native sidecar)',
    pod: pod([c('app2', '600m', '1200Mi', '300m', '600Mi')], [
      c('app1', '400m', '800Mi', '200m', '400Mi', { restartPolicy: 'Always' }),
      c('app2', '1', '1Gi', '1', '1Gi'),
    ]),
    policy: policy('sum', '^app.*$', ['max(cpu*30%, 50m)', 'max(memory*25%, 100Mi)'], ['cpu*20%', 'memory*15%']),
    limits: { cpu: '300m', memory: '500Mi' }, requests: { cpu: '100m', memory: '150Mi' },
  },
  // Beyond upstream's table: the messages of spec §3.5.
  {
    name: 'an unlimited target leaves even a constant limit unset',
    pod: pod([c('app1', '', '', '', '')]),
    policy: policy('sum', '.*', ['200m', '200Mi']),
  },
  {
    name: 'an expression error names the field and the expression',
    pod: pod([c('app1', '1', '1Gi', '', '')]),
    policy: policy('sum', '.*', ['cpu*2m', '']),
    error: 'failed to evaluate CPU limits expression: failed to parse expression "cpu*2m": multiplication of two quantities',
  },
  {
    name: 'a memory request error says memory requests',
    pod: pod([c('app1', '1', '1Gi', '', '')]),
    policy: policy('sum', '.*', undefined, ['', '100Mi/memory']),
    error: 'failed to evaluate memory requests expression: failed to parse expression "100Mi/memory": division by quantity',
  },
  {
    name: 'an invalid regex is reported as upstream words it',
    pod: pod([c('app1', '1', '1Gi', '', '')]),
    policy: policy('sum', '(?=a)', ['cpu', '']),
    error: 'failed to get target containers: invalid regex pattern "(?=a)": error parsing regexp: invalid or unsupported Perl syntax: `(?=`',
  },
];

for (const tc of cases) {
  test(`applyResourcesPolicy: ${tc.name}`, () => {
    if (tc.error) {
      assert.throws(() => policyResources(tc.policy, tc.pod, []), (err: unknown) => err instanceof ResourcesPolicyError && err.message === tc.error);
      return;
    }
    const want = { ...(tc.limits ? { limits: tc.limits } : {}), ...(tc.requests ? { requests: tc.requests } : {}) };
    assert.deepEqual(policyResources(tc.policy, tc.pod, []), want);
  });
}

// TestEvaluateResourceExpression: [expr, aggregated, result] (the empty expression is handled by the caller).
const evaluations: [string, string, string][] = [
  ['cpu*50%', '200m', '100m'], ['memory*30%', '600Mi', '180Mi'], ['max(cpu*50%, 100m)', '150m', '100m'],
  ['max(cpu*50%, 100m)', '400m', '200m'], ['cpu + 50m', '100m', '150m'], ['max(memory*20% + 100Mi, 200Mi)', '800Mi', '260Mi'],
  ['500m', '1', '500m'], ['1Gi', '500Mi', '1Gi'], ['cpu*50%', '0', '0'], ['memory*25%', '400Mi', '100Mi'], ['1', '2', '1'], ['1', '2Mi', '1'],
  ['memory*0.5', '1Mi', '512Ki'], ['memory/3', '100Mi', '34952533333m'], ['memory*1.5', '1', '1500m'],
];
for (const [expr, value, want] of evaluations) {
  test(`evaluateResourceExpression: ${expr} with ${value} is ${want}`, () => {
    assert.equal(formatGoQuantity(evaluateResourceExpression(expr, parseQuantity(value))), want);
  });
}

test('evaluateResourceExpression: an invalid expression is an error', () => {
  assert.throws(() => evaluateResourceExpression('cpu * invalid', parseQuantity('1')), /failed to parse expression "cpu \* invalid": undefined variable: invalid/);
});

test('TestGetTargetContainers: native sidecars and containers, without any SidecarSet container, in order', () => {
  const p = pod([c('app1', '', '', '', ''), c('app2', '', '', '', ''), c('sidecar1', '', '', '', '')], [
    c('init-sidecar1', '', '', '', '', { restartPolicy: 'Always' }),
    c('plain-init-container', '', '', '', ''),
    c('sidecar-container', '', '', '', '', { restartPolicy: 'Always' }),
  ]);
  assert.deepEqual(targetContainers(p, '^.*$', [sidecarSet(['sidecar1'], ['init-sidecar1'])]).map((x) => x.name), ['sidecar-container', 'app1', 'app2']);
});

test('targets: the regex is an unanchored match', () => {
  assert.deepEqual(targetContainers(pod([c('myapp-2', '', '', '', ''), c('db', '', '', '', '')]), 'app', []).map((x) => x.name), ['myapp-2']);
});

test('max mode keeps the winning quantity as the pod wrote it; sum prints canonically', () => {
  const p = pod([c('a', '1.500', '', '', ''), c('b', '1.5', '', '', '')]);
  assert.deepEqual(policyResources(policy('max', '.*', ['cpu', '']), p, []), { limits: { cpu: '1.500' } });
  assert.deepEqual(policyResources(policy('sum', '.*', ['cpu', '']), p, []), { limits: { cpu: '3' } });
});

// TestAggregateResourcesBySum / TestAggregateResourcesByMax, read through identity expressions (`cpu`, `memory`):
// an unlimited limit is left unset, an absent request reads as 0.
const identity = (mode: string) => policy(mode, '.*', ['cpu', 'memory'], ['cpu', 'memory']);
const aggregates: { name: string; mode: string; pod: Pod; limits: Record<string, string>; requests: Record<string, string> }[] = [
  { name: 'sum: all containers have limits', mode: 'sum', pod: pod([c('app1', '200m', '200Mi', '50m', '100Mi'), c('app2', '400m', '400Mi', '100m', '200Mi')]),
    limits: { cpu: '600m', memory: '600Mi' }, requests: { cpu: '150m', memory: '300Mi' } },
  { name: 'sum: one container without CPU limit is unlimited', mode: 'sum', pod: pod([c('app1', '200m', '200Mi', '50m', '100Mi'), c('app2', '', '400Mi', '100m', '200Mi')]),
    limits: { memory: '600Mi' }, requests: { cpu: '150m', memory: '300Mi' } },
  { name: 'sum: container without requests is 0', mode: 'sum', pod: pod([c('app1', '200m', '200Mi', '50m', '100Mi'), c('app2', '400m', '400Mi', '', '')]),
    limits: { cpu: '600m', memory: '600Mi' }, requests: { cpu: '50m', memory: '100Mi' } },
  { name: 'max: all containers have limits', mode: 'max', pod: pod([c('app1', '200m', '200Mi', '50m', '100Mi'), c('app2', '400m', '400Mi', '100m', '200Mi')]),
    limits: { cpu: '400m', memory: '400Mi' }, requests: { cpu: '100m', memory: '200Mi' } },
  { name: 'max: one container without Memory limit is unlimited', mode: 'max', pod: pod([c('app1', '200m', '200Mi', '50m', '100Mi'), c('app2', '400m', '', '100m', '')]),
    limits: { cpu: '400m' }, requests: { cpu: '100m', memory: '100Mi' } },
  { name: 'max: one container without Cpu limit is unlimited', mode: 'max', pod: pod([c('app1', '200m', '200Mi', '50m', '100Mi'), c('app2', '', '400Mi', '', '200Mi')]),
    limits: { memory: '400Mi' }, requests: { cpu: '50m', memory: '200Mi' } },
  { name: 'max: container without requests is 0', mode: 'max', pod: pod([c('app1', '200m', '200Mi', '50m', '100Mi'), c('app2', '100m', '150Mi', '', '')]),
    limits: { cpu: '200m', memory: '200Mi' }, requests: { cpu: '50m', memory: '100Mi' } },
  { name: 'no request anywhere reads as 0; an unknown mode aggregates nothing', mode: 'avg', pod: pod([c('app1', '200m', '200Mi', '50m', '100Mi')]),
    limits: {}, requests: { cpu: '0', memory: '0' } },
];
for (const tc of aggregates) {
  test(`aggregation: ${tc.name}`, () => {
    const want = { ...(Object.keys(tc.limits).length > 0 ? { limits: tc.limits } : {}), requests: tc.requests };
    assert.deepEqual(policyResources(identity(tc.mode), tc.pod, []), want);
  });
}

// Review N-L2: names the apiserver refuses (over 63 characters) reached the regex, and DFA-exponential patterns cost
// 0.4–2.7 s on 100 KB names. Such a container is no target now: the pod cannot be stored with it anyway.
for (const [pattern, tail] of [['(a|b)*a(a|b){300}c', 'a'.repeat(301)], ['(a|b)*a(a|b){20}c', 'a'.repeat(21)]] as const) {
  test(`targets: a 100 KB container name is never matched against ${pattern}, a 63-character one is`, () => {
    const long = `${'ab'.repeat(50_000)}${tail}c`; // matches the pattern
    const p = pod([c(long, '7', '', '', ''), c('app', '1', '', '', '')]);
    assert.deepEqual(targetContainers(p, pattern, []).map((x) => x.name.length), []);
    assert.deepEqual(targetContainers(p, '.*', []).map((x) => x.name), ['app']);
    assert.deepEqual(policyResources(policy('sum', '.*', ['cpu', '']), p, []), { limits: { cpu: '1' } });
    const limit = pod([c(`${'b'.repeat(40)}a${'a'.repeat(20)}c`, '1', '', '', '')]);
    assert.equal(targetContainers(limit, '(a|b)*a(a|b){20}c', []).length, 1);
  });
}

test('targets: a container whose name is not a string is no target (a raw review, not an apiserver pod)', () => {
  const p = pod([{ name: 5 } as unknown as Container, c('app', '1', '', '', '')]);
  assert.deepEqual(targetContainers(p, '.*', []).map((x) => x.name), ['app']);
});
