import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { WorkloadSpread, WorkloadSpreadSubset } from '../../api/workload-spread.js';
import { formatViolations } from '../../errors.js';
import { PATCH_CHECK_BUDGET_BYTES, validateWorkloadSpread, type WorkloadSpreadValidationContext } from './workload-spread.js';

const base = (spec: Partial<NonNullable<WorkloadSpread['spec']>> = {}, name = 'test-ws'): WorkloadSpread => ({
  metadata: { name, namespace: 'default' },
  spec: {
    targetRef: { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'cloneset-test' },
    subsets: [{ name: 'subset-a', maxReplicas: 50 }, { name: 'subset-b', maxReplicas: 50 }, { name: 'subset-c' }],
    ...spec,
  },
});
const none: WorkloadSpreadValidationContext = { others: [] };
const fields = (ws: WorkloadSpread, ctx = none, old?: WorkloadSpread) => validateWorkloadSpread(ws, old, ctx).map((v) => v.field);
const message = (ws: WorkloadSpread, ctx = none, old?: WorkloadSpread) => formatViolations(validateWorkloadSpread(ws, old, ctx));
const subsets = (...maxes: Array<number | string | undefined>): WorkloadSpreadSubset[] => maxes.map((m, i) => ({ name: `s${i}`, ...(m === undefined ? {} : { maxReplicas: m }) }));

describe('WorkloadSpread validation: accepted (upstream success vectors)', () => {
  const ok: Array<[string, WorkloadSpread]> = [
    ['CloneSet with int subsets 50, 50, nil', base()],
    ['apps/v1 StatefulSet', base({ targetRef: { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'sts' } })],
    ['Advanced StatefulSet v1alpha1', base({ targetRef: { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'StatefulSet', name: 'sts' } })],
    ['Advanced StatefulSet v1beta1', base({ targetRef: { apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet', name: 'sts' } })],
    ['Deployment, Adaptive 30 s', base({ targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'd' }, subsets: subsets(5, undefined), scheduleStrategy: { type: 'Adaptive', adaptive: { rescheduleCriticalSeconds: 30 } } })],
    ['Job with 50%, 50%', base({ targetRef: { apiVersion: 'batch/v1', kind: 'Job', name: 'j' }, subsets: subsets('50%', '50%') })],
    ['Job with 50%, 50%, nil + Adaptive', base({ targetRef: { apiVersion: 'batch/v1', kind: 'Job', name: 'j' }, subsets: subsets('50%', '50%', undefined), scheduleStrategy: { type: 'Adaptive', adaptive: {} } })],
  ];
  for (const [name, ws] of ok) it(name, () => assert.deepEqual(validateWorkloadSpread(ws, undefined, none), []));
});

describe('WorkloadSpread validation: refused (upstream error vectors, field paths)', () => {
  const cases: Array<[string, WorkloadSpread, string[]]> = [
    ['targetRef nil', base({ targetRef: undefined as never }), ['spec.targetRef']],
    ['empty targetRef field', base({ targetRef: { apiVersion: '', kind: 'CloneSet', name: 'demo' } }), ['spec.targetRef']],
    ['no subsets', base({ subsets: [] }), ['spec.subsets']],
    ['rollouts.kruise.io/v2 StatefulSet', base({ targetRef: { apiVersion: 'rollouts.kruise.io/v2', kind: 'StatefulSet', name: 's' } }), ['spec.targetRef']],
    ['StatefulSet with 50%', base({ targetRef: { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 's' }, subsets: subsets('50%', undefined) }), ['spec.subsets[0].maxReplicas']],
    ['empty name', base({ subsets: [{ name: '' }] }), ['spec.subsets[0].name']],
    ['duplicate name', base({ subsets: [{ name: 'a' }, { name: 'a' }] }), ['spec.subsets[1].name']],
    ['Exists with values', base({ subsets: [{ name: 'a', requiredNodeSelectorTerm: { matchExpressions: [{ key: 'k', operator: 'Exists', values: ['v'] }] } }] }), ['spec.subsets[0].requiredNodeSelectorTerm.matchExpressions[0].values']],
    ['weight 101', base({ subsets: [{ name: 'a', preferredNodeSelectorTerms: [{ weight: 101, preference: {} }] }] }), ['spec.subsets[0].preferredSchedulingTerms[0].weight']],
    ['-100', base({ subsets: subsets(-100) }), ['spec.subsets[0].maxReplicas']],
    ['0.2%', base({ subsets: subsets('0.2%') }), ['spec.subsets[0].maxReplicas']],
    ['50.2%', base({ subsets: subsets('50.2%') }), ['spec.subsets[0].maxReplicas']],
    ['101%', base({ subsets: subsets('101%') }), ['spec.subsets[0].maxReplicas']],
    ['-1%', base({ subsets: subsets('-1%') }), ['spec.subsets[0].maxReplicas']],
    ['40% + 70%', base({ subsets: subsets('40%', '70%') }), ['spec.subsets[1].maxReplicas']],
    ['40%, 20%, 20%', base({ subsets: subsets('40%', '20%', '20%') }), ['spec.subsets[0].maxReplicas']],
    ['type random', base({ scheduleStrategy: { type: 'random' as never } }), ['spec.scheduleStrategy.type']],
    ['adaptive without type', base({ subsets: subsets(1, undefined), scheduleStrategy: { adaptive: { rescheduleCriticalSeconds: 30 } } }), ['spec.scheduleStrategy.type']],
    ['rescheduleCriticalSeconds -1', base({ subsets: subsets(1, undefined), scheduleStrategy: { type: 'Adaptive', adaptive: { rescheduleCriticalSeconds: -1 } } }), ['spec.scheduleStrategy.adaptive.rescheduleCriticalSeconds']],
    ['last subset limited under Adaptive', base({ subsets: subsets(1, 2), scheduleStrategy: { type: 'Adaptive', adaptive: { rescheduleCriticalSeconds: 30 } } }), ['spec.scheduleStrategy.adaptive']],
  ];
  for (const [name, ws, want] of cases) it(name, () => assert.deepEqual(fields(ws), want));
});

describe('WorkloadSpread validation: messages as upstream renders them', () => {
  it('empty TargetReference, in Go syntax', () => {
    assert.equal(message(base({ targetRef: { apiVersion: '', kind: 'CloneSet', name: 'demo' } })),
      'spec.targetRef: Invalid value: v1alpha1.TargetReference{APIVersion:"", Kind:"CloneSet", Name:"demo"}: empty TargetReference is not valid for WorkloadSpread.');
  });
  it('mixed maxReplicas types stop the subset checks', () => {
    assert.equal(message(base({ subsets: subsets(1, '120%', -5) })),
      'spec.subsets[1].maxReplicas: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"120%"}: the maxReplicas type of all subsets must be the same');
  });
  it('"50" passes as 50 % (legacy parser, §18 #7), and its sum then has to reach 100', () => {
    assert.deepEqual(fields(base({ subsets: subsets('50', '50%') })), []);
  });
  it('rescheduleCriticalSeconds bound for 3 subsets is 147', () => {
    assert.equal(message(base({ subsets: subsets(1, 1, undefined), scheduleStrategy: { type: 'Adaptive', adaptive: { rescheduleCriticalSeconds: 148 } } })),
      'spec.scheduleStrategy.adaptive.rescheduleCriticalSeconds: Invalid value: 148: rescheduleCriticalSeconds < 0 or rescheduleCriticalSeconds > 147 is not permitted');
  });
  it('adaptive without a type shows null for unset seconds', () => {
    assert.equal(message(base({ subsets: subsets(undefined), scheduleStrategy: { adaptive: {} } })),
      "spec.scheduleStrategy.type: Invalid value: null: the scheduleStrategy's type must be adaptive when using adaptive scheduleStrategy");
  });
  it('a kind outside the built-ins is not permitted (no whitelist)', () => {
    assert.match(message(base({ targetRef: { apiVersion: 'mock.kruise.io/v1', kind: 'GameServerSet', name: 'g' } })), /TargetReference's GroupKind is not permitted\.$/);
  });
});

describe('WorkloadSpread validation: conflict, update, patch against the workload', () => {
  it('another WorkloadSpread with the same group, kind and name conflicts; another version of the group too', () => {
    const other = base({ targetRef: { apiVersion: 'apps.kruise.io/v1beta1', kind: 'CloneSet', name: 'cloneset-test' } }, 'other');
    assert.match(message(base(), { others: [other] }), /ws\.spec\.targetRef is in conflict with other WorkloadSpread other$/);
    assert.deepEqual(fields(base(), { others: [base()] }), [], 'itself is no conflict');
    assert.deepEqual(fields(base(), { others: [base({ targetRef: { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'x' } }, 'other')] }), []);
  });
  it('changing group, kind or name of the target is refused on update; the version may change', () => {
    const old = base();
    assert.deepEqual(fields(base({ targetRef: { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'other' } }), none, old), ['spec.targetRef']);
    assert.deepEqual(fields(base({ targetRef: { apiVersion: 'apps.kruise.io/v1beta1', kind: 'CloneSet', name: 'cloneset-test' } }), none, old), []);
  });
  const workload = (vct: string) => ({
    template: { metadata: {}, spec: { terminationGracePeriodSeconds: 30, restartPolicy: 'Always', dnsPolicy: 'ClusterFirst', containers: [{ name: 'main', image: 'nginx', imagePullPolicy: 'Always', terminationMessagePolicy: 'File', volumeMounts: [{ name: 'vol-1--0', mountPath: '/data' }] }] } },
    volumeClaimTemplates: [{ metadata: { name: vct } }],
  });
  const patched = base({ subsets: [{ name: 'a', patch: { metadata: { labels: { x: 'y' } } } }] });
  it('a patch over a template whose mount a volumeClaimTemplate backs is valid', () => {
    assert.deepEqual(fields(patched, { others: [], workload: workload('vol-1--0') }), []);
  });
  it('the patch checks stop at PATCH_CHECK_BUDGET_BYTES of template (a 17 MiB template: the first patched subset only)', () => {
    const big = workload('bad-boy');
    (big.template.metadata as Record<string, unknown>).annotations = { filler: 'x'.repeat(17 * 1024 * 1024) };
    const two = base({ subsets: [{ name: 'a', patch: { metadata: { labels: { x: 'y' } } } }, { name: 'b', patch: { metadata: { labels: { x: 'z' } } } }] });
    assert.deepEqual(fields(two, { others: [], workload: big }), ['spec.subsets[0].patch.containers[0].volumeMounts[0].name']);
    assert.ok(PATCH_CHECK_BUDGET_BYTES < 2 * 17 * 1024 * 1024);
  });
  it('the template mount without its claim is one error under spec.subsets[0].patch', () => {
    assert.deepEqual(fields(patched, { others: [], workload: workload('bad-boy') }), ['spec.subsets[0].patch.containers[0].volumeMounts[0].name']);
  });
});
