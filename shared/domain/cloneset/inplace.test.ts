import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Pod } from '../../api/meta.js';
import { T0 } from './fixtures.js';
import { inPlaceUpdateSpec, isInPlaceComplete, refreshInPlace, startInPlaceUpdate } from './inplace.js';
import { nextLifecycleState } from './lifecycle.js';
import { defaultCloneSet } from './defaults.js';
import { normalizedTemplate } from './revision.js';

const tpl = (image: string, extra: Record<string, unknown> = {}) => ({ metadata: { labels: { app: 'a' } }, spec: { containers: [{ name: 'c1', image, ...extra }] } });

function podV7(): Pod {
  return {
    metadata: { name: 'pod-0', namespace: 'default', labels: { 'controller-revision-hash': 'rev_old', 'lifecycle.apps.kruise.io/state': 'Normal' } },
    spec: { containers: [{ name: 'c1', image: 'foo1' }], readinessGates: [{ conditionType: 'InPlaceUpdateReady' }] },
    status: {
      phase: 'Running',
      conditions: [{ type: 'Ready', status: 'True' }, { type: 'InPlaceUpdateReady', status: 'True' }],
      containerStatuses: [{ name: 'c1', image: 'foo1', imageID: 'image-id-xyz', ready: true, restartCount: 0 } as never],
    },
  };
}

describe('in-place update (spec §3.8, §6 V7)', () => {
  it('guestbook v1 → v2 is one image replace; adding env is not in place', () => {
    const guest = (image: string, env?: { name: string; value: string }[]) => normalizedTemplate(defaultCloneSet({ metadata: { name: 'g' }, spec: { selector: {}, template: {
      metadata: { labels: { 'app.kubernetes.io/name': 'guestbook-clone' } },
      spec: { containers: [{ name: 'guestbook', image, imagePullPolicy: 'Always', ports: [{ name: 'http-server', containerPort: 3000 }], ...(env ? { env } : {}) }] } } } }));
    assert.deepEqual(inPlaceUpdateSpec(guest('openkruise/guestbook:v1'), guest('openkruise/guestbook:v2'), 'r2'), { revision: 'r2', containerImages: { guestbook: 'openkruise/guestbook:v2' } });
    assert.equal(inPlaceUpdateSpec(guest('openkruise/guestbook:v1'), guest('openkruise/guestbook:v1', [{ name: 'A', value: '1' }]), 'r2'), undefined);
  });

  it('metadata changes ride along as a labels/annotations patch', () => {
    const a = tpl('x');
    const b = { metadata: { labels: { app: 'a', v: '2' }, annotations: { k: 'v' } }, spec: a.spec };
    assert.deepEqual(inPlaceUpdateSpec(a, b, 'r')?.metaDataPatch, { labels: { v: '2' }, annotations: { k: 'v' } });
  });

  it('case "inplace update": labels, Updating, image, state annotation with imageID and one batch', () => {
    const spec = inPlaceUpdateSpec(tpl('foo1'), tpl('foo2'), 'rev_new')!;
    const pod = startInPlaceUpdate(podV7(), spec, T0, 0);
    assert.equal(pod.metadata?.labels?.['controller-revision-hash'], 'rev_new');
    assert.equal(pod.metadata?.labels?.['pod-template-hash'], 'rev_new');
    assert.equal(pod.metadata?.labels?.['lifecycle.apps.kruise.io/state'], 'Updating');
    assert.equal(pod.spec?.containers[0]?.image, 'foo2');
    assert.equal(pod.metadata?.annotations?.['apps.kruise.io/inplace-update-state'],
      '{"revision":"rev_new","updateTimestamp":"2025-06-01T12:00:00Z","lastContainerStatuses":{"c1":{"imageID":"image-id-xyz"}},"updateImages":true,"containerBatchesRecord":[{"timestamp":"2025-06-01T12:00:00Z","containers":["c1"]}]}');
    assert.equal(isInPlaceComplete(pod), false, 'the container still runs the old image');
    assert.equal(nextLifecycleState(pod, undefined, 'rev_new'), undefined);
  });

  it('case "inplace update with grace period": image kept, grace annotation, Refresh patches after the grace', () => {
    const spec = inPlaceUpdateSpec(tpl('foo1'), tpl('foo2'), 'rev_new')!;
    const pod = startInPlaceUpdate(podV7(), spec, T0, 3630);
    assert.equal(pod.spec?.containers[0]?.image, 'foo1');
    assert.match(pod.metadata?.annotations?.['apps.kruise.io/inplace-update-state'] ?? '', /"lastContainerStatuses":null/);
    assert.equal(pod.metadata?.annotations?.['apps.kruise.io/inplace-update-grace'], '{"revision":"rev_new","containerImages":{"c1":"foo2"},"graceSeconds":3630}');
    assert.deepEqual(refreshInPlace(pod, T0 + 1500), { kind: 'wait', requeueAfterMs: 3629000 });
    const after = refreshInPlace(pod, T0 + 3630_000);
    assert.equal(after.kind, 'write');
    const written = (after as { pod: Pod }).pod;
    assert.equal(written.spec?.containers[0]?.image, 'foo2');
    assert.equal(written.metadata?.annotations?.['apps.kruise.io/inplace-update-grace'], undefined);
  });

  it('completion: a new imageID, or the same imageID with the spec image reported, completes the update', () => {
    const pod = startInPlaceUpdate(podV7(), inPlaceUpdateSpec(tpl('foo1'), tpl('foo2'), 'rev_new')!, T0, 0);
    const restarted = structuredClone(pod);
    restarted.status!.containerStatuses![0] = { ...restarted.status!.containerStatuses![0]!, imageID: 'image-id-new', image: 'foo2:latest' };
    assert.equal(refreshInPlace(restarted, T0).kind, 'complete');
    assert.equal(nextLifecycleState(restarted, undefined, 'rev_new'), 'Normal');
    const sameId = structuredClone(pod);
    sameId.status!.containerStatuses![0]!.image = 'foo2:latest';
    assert.equal(isInPlaceComplete(sameId), true);
  });
});
