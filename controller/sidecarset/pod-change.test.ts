import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Pod } from '../../shared/api/meta.js';
import type { SidecarContainer, SidecarSet } from '../../shared/api/sidecarset.js';
import { kubelet, makePod, makeSet, rehash } from './fixtures.js';
import { InPlaceResizeAnnotation, podChange, type ChangeInputs } from './pod-change.js';
import type { SidecarDiff } from './sidecar-diff.js';

const sidecar: SidecarContainer = { name: 'sidecar', image: 'busybox:1.0', command: ['sleep', '1d'], resources: { requests: { cpu: '100m' } } };
const v1 = makeSet({ containers: [sidecar] });
const v2 = makeSet({ containers: [{ ...sidecar, resources: { requests: { cpu: '200m' } } }] });
const pod = kubelet(makePod('a', [v1]));

const inputs = (o: { diff?: SidecarDiff; unsupported?: string; refused?: string } = {}): ChangeInputs => ({
  diff: () => o.diff,
  unsupported: o.unsupported,
  refused: () => o.refused,
});
const off = (set: SidecarSet) => rehash({ ...set, metadata: { ...set.metadata, annotations: { ...set.metadata?.annotations, [InPlaceResizeAnnotation]: 'false' } } });

const cases: { name: string; set: SidecarSet; pod: Pod; inputs: ChangeInputs; want: string }[] = [
  { name: 'equal hash-without-image: upstream image update (whatever the revision says)', set: makeSet({ containers: [{ ...sidecar, image: 'busybox:2.0' }] }), pod, inputs: inputs(), want: 'image' },
  { name: 'resources only: resize', set: v2, pod, inputs: inputs({ diff: { resized: ['sidecar'], fields: [] } }), want: 'resize sidecar' },
  { name: 'resources only, switched off by annotation: new pods only', set: off(v2), pod, inputs: inputs({ diff: { resized: ['sidecar'], fields: [] } }), want: `new-pods-only: in-place resize is off (${InPlaceResizeAnnotation}: "false")` },
  { name: 'the pod\'s revision is not stored: new pods only', set: v2, pod, inputs: inputs(), want: 'new-pods-only: the revision the pod was injected from is no longer stored' },
  { name: 'env changed too: new pods only, naming the fields', set: v2, pod, inputs: inputs({ diff: { resized: ['sidecar'], fields: ['command', 'env'] } }), want: 'new-pods-only: command, env changed, which only new pods get' },
  { name: 'the cluster cannot resize: new pods only', set: v2, pod, inputs: inputs({ diff: { resized: ['sidecar'], fields: [] }, unsupported: 'no pods/resize' }), want: 'new-pods-only: no pods/resize' },
  { name: 'the API refused this pod\'s resize: new pods only, not retried', set: v2, pod, inputs: inputs({ diff: { resized: ['sidecar'], fields: [] }, refused: 'Invalid: qos' }), want: 'new-pods-only: Invalid: qos' },
];

for (const tc of cases) {
  test(`podChange: ${tc.name}`, () => {
    const c = podChange(tc.set, tc.pod, tc.inputs);
    const got = c.kind === 'resize' ? `resize ${c.containers.join(',')}` : c.kind === 'image' ? 'image' : `new-pods-only: ${c.reason}`;
    assert.equal(got, tc.want);
  });
}
