// A strict decode (Go's DisallowUnknownFields, as OpenKruise's clientset can be set up to do) of every kind's objects
// as kruise-ts writes them, spec and status, against the fields of OpenKruise v1.9.0's types
// (scripts/fixtures/openkruise-v1.9.0-crd-paths.txt; controller-gen derives those CRDs from the Go types). The
// objects: the every-field fixtures the e2e suite stores (e2e/harness/crd-fixtures.ts, every field kruise-ts's
// schemas carry) and statuses the controllers compute. Only user content under upstream's preserve-unknown-fields
// paths (a CloneSet's template, a SidecarSet's containers) is not judged: upstream keeps whatever it is given there.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { computeStatus as imageListPullJobStatus } from '../controller/imagelistpulljob/job-status.js';
import { computeStatus as resourceDistributionStatus } from '../controller/resourcedistribution/status.js';
import { computeStatus as sidecarSetStatus } from '../controller/sidecarset/status.js';
import { CLONESET, CRD_FIXTURES, SIDECARSET } from '../e2e/harness/crd-fixtures.js';
import type { CloneSet } from '../shared/api/cloneset.js';
import type { ImageListPullJob } from '../shared/api/image-list-pull-job.js';
import type { ImagePullJob } from '../shared/api/image-pull-job.js';
import type { ResourceDistribution } from '../shared/api/resource-distribution.js';
import type { SidecarSet } from '../shared/api/sidecarset.js';
import { computeStatus as cloneSetStatus } from '../shared/domain/cloneset/status.js';
import { unknownFields, type KnownPath } from './crd-paths.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function upstream(): Map<string, Map<string, KnownPath>> {
  const out = new Map<string, Map<string, KnownPath>>();
  for (const l of readFileSync(join(repoRoot, 'scripts/fixtures/openkruise-v1.9.0-crd-paths.txt'), 'utf8').split('\n')) {
    if (!l || l.startsWith('#')) continue;
    const [plural, version, path, , ...flags] = l.split(' ');
    if (!out.has(plural!)) out.set(plural!, new Map());
    out.get(plural!)!.set(`${version} ${path}`, { preserve: flags.includes('preserve') });
  }
  return out;
}
const UP = upstream();

/** What a strict decoder of `plural`/`version` refuses in `obj` (spec and status; metadata is ObjectMeta's). */
function refused(plural: string, version: string, obj: { spec?: unknown; status?: unknown }): string[] {
  const known = UP.get(plural)!;
  return [
    ...(obj.spec === undefined ? [] : unknownFields(obj.spec, known, `${version} spec`)),
    ...(obj.status === undefined ? [] : unknownFields(obj.status, known, `${version} status`)),
  ];
}

describe('strict decode of kruise-ts objects with OpenKruise v1.9.0 types', () => {
  for (const { plural, version = 'v1alpha1', object } of CRD_FIXTURES) {
    it(`${object.kind} ${version}: every field kruise-ts stores is one of upstream's`, () => assert.deepEqual(refused(plural, version, object), []));
  }

  it('CloneSet status as the controller computes it, conditions included', () => {
    const cs = structuredClone(CLONESET) as unknown as CloneSet;
    const status = cloneSetStatus({ cs, pods: [{ metadata: { name: 'p', labels: { 'controller-revision-hash': 'r2' } }, status: { phase: 'Running' } }],
      updateRevision: 'r2', currentRevision: 'r1', collisionCount: 0, nowMs: Date.parse('2026-01-02T03:04:05Z'),
      failures: [{ type: 'FailedUpdate', status: 'True', lastTransitionTime: '2026-01-02T03:04:05Z', message: 'x' }] });
    assert.ok(status.conditions?.length, 'conditions written');
    assert.deepEqual(refused('clonesets', 'v1alpha1', { status }), []);
  });

  it('SidecarSet status as the controller computes it (both versions)', () => {
    const set = structuredClone(SIDECARSET) as unknown as SidecarSet;
    const status = sidecarSetStatus(set, [], 'every-field-abc', 1);
    for (const v of ['v1alpha1', 'v1beta1']) assert.deepEqual(refused('sidecarsets', v, { status }), []);
  });

  it('ImageListPullJob status with a failed child (both versions)', () => {
    const job = { metadata: { name: 'j', namespace: 'default' }, spec: { images: ['a:1'] } } as unknown as ImageListPullJob;
    const child = { metadata: { name: 'j-a' }, status: { startTime: '2026-01-02T03:04:05Z', desired: 2, active: 1, succeeded: 0, failed: 1 } } as unknown as ImagePullJob;
    const status = imageListPullJobStatus(job, new Map([['a:1', child]]), '2026-01-02T03:04:05Z');
    assert.ok(status.failedImageStatuses?.length);
    for (const v of ['v1alpha1', 'v1beta1']) assert.deepEqual(refused('imagelistpulljobs', v, { status }), []);
  });

  it('ResourceDistribution status with a failure', () => {
    const rd = { metadata: { name: 'rd' }, spec: {} } as unknown as ResourceDistribution;
    const status = resourceDistributionStatus(rd, 2, 1, [{ condition: 'CreateResourceFailed', namespace: 'apps', message: 'Forbidden' }] as never, new Date(0));
    assert.deepEqual(refused('resourcedistributions', 'v1alpha1', { status }), []);
  });

  it('the check refuses what upstream lacks: a status.conditions on a SidecarSet, a key in a typed object', () => {
    assert.deepEqual(refused('sidecarsets', 'v1beta1', { status: { matchedPods: 1, conditions: [{ type: 'InPlaceResize', status: 'False' }] } }), ['v1beta1 status.conditions']);
    assert.deepEqual(refused('clonesets', 'v1alpha1', { spec: { updateStrategy: { partition: 1, rollback: true }, template: { anything: 1 } } }), ['v1alpha1 spec.updateStrategy.rollback']);
  });
});
