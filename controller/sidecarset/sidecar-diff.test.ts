import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { SidecarContainer, SidecarSet } from '../../shared/api/sidecarset.js';
import { SidecarSetHashAnnotation } from '../../shared/api/sidecarset.js';
import { revisionData } from '../../shared/domain/sidecarset-revision.js';
import { makeSet } from './fixtures.js';
import type { Revision } from './revision-history.js';
import { diffLookup, diffSidecars } from './sidecar-diff.js';

const base: SidecarContainer = { name: 'sidecar', image: 'busybox:1.0', command: ['sleep', '1d'], resources: { requests: { cpu: '100m', memory: '64Mi' } } };
const spec = (...containers: SidecarContainer[]): SidecarSet['spec'] => ({ containers });

const cases: { name: string; now: SidecarSet['spec']; then: SidecarSet['spec']; want: { resized: string[]; fields: string[] } }[] = [
  { name: 'nothing changed', now: spec(base), then: spec(base), want: { resized: [], fields: [] } },
  { name: 'only the image changed: nothing beyond what upstream updates', now: spec({ ...base, image: 'busybox:2.0' }), then: spec(base), want: { resized: [], fields: [] } },
  { name: 'cpu changed: resources only', now: spec({ ...base, resources: { requests: { cpu: '200m', memory: '64Mi' } } }), then: spec(base), want: { resized: ['sidecar'], fields: [] } },
  { name: 'image and memory changed: resize plus image update', now: spec({ ...base, image: 'b:2', resources: { limits: { memory: '1Gi' } } }), then: spec(base), want: { resized: ['sidecar'], fields: [] } },
  { name: 'an equal quantity written differently is no change (Go re-prints quantities)', now: spec({ ...base, resources: { requests: { cpu: '0.1', memory: '64Mi' } } }), then: spec(base), want: { resized: [], fields: [] } },
  { name: 'env changed: new pods only', now: spec({ ...base, env: [{ name: 'A', value: '1' }] }), then: spec(base), want: { resized: [], fields: ['env'] } },
  { name: 'command and resources changed: the command keeps it out of place', now: spec({ ...base, command: ['x'], resources: {} }), then: spec(base), want: { resized: ['sidecar'], fields: ['command'] } },
  { name: 'mounts changed', now: spec({ ...base, volumeMounts: [{ name: 'v', mountPath: '/v' }] }), then: spec(base), want: { resized: [], fields: ['volumeMounts'] } },
  { name: 'a container added', now: spec(base, { ...base, name: 'two' }), then: spec(base), want: { resized: [], fields: ['containers'] } },
  // kruise-ts: native sidecars change in place like containers; plain init containers (hashed with them) do not.
  { name: 'a native sidecar\'s image changed: in place', now: { ...spec(base), initContainers: [{ name: 'i', image: 'x:2', restartPolicy: 'Always' }] },
    then: { ...spec(base), initContainers: [{ name: 'i', image: 'x:1', restartPolicy: 'Always' }] }, want: { resized: [], fields: [] } },
  { name: 'a native sidecar\'s resources changed: resized', now: { ...spec(base), initContainers: [{ name: 'i', image: 'x:1', restartPolicy: 'Always', resources: { requests: { cpu: '2' } } }] },
    then: { ...spec(base), initContainers: [{ name: 'i', image: 'x:1', restartPolicy: 'Always', resources: { requests: { cpu: '1' } } }] }, want: { resized: ['i'], fields: [] } },
  { name: 'a native sidecar\'s env changed: new pods only', now: { ...spec(base), initContainers: [{ name: 'i', image: 'x:1', restartPolicy: 'Always', env: [{ name: 'A', value: '1' }] }] },
    then: { ...spec(base), initContainers: [{ name: 'i', image: 'x:1', restartPolicy: 'Always' }] }, want: { resized: [], fields: ['env'] } },
  { name: 'a plain init container next to a native one changed its image: new pods only',
    now: { ...spec(base), initContainers: [{ name: 'p', image: 'p:2' }, { name: 'i', image: 'x:1', restartPolicy: 'Always' }] },
    then: { ...spec(base), initContainers: [{ name: 'p', image: 'p:1' }, { name: 'i', image: 'x:1', restartPolicy: 'Always' }] }, want: { resized: [], fields: ['initContainers'] } },
  { name: 'a native sidecar added', now: { ...spec(base), initContainers: [{ name: 'i', image: 'x:1', restartPolicy: 'Always' }, { name: 'j', image: 'x:1', restartPolicy: 'Always' }] },
    then: { ...spec(base), initContainers: [{ name: 'i', image: 'x:1', restartPolicy: 'Always' }] }, want: { resized: [], fields: ['initContainers'] } },
];

for (const tc of cases) test(`diffSidecars: ${tc.name}`, () => assert.deepEqual(diffSidecars(tc.now, tc.then), tc.want));

function revisionOf(set: SidecarSet, name: string): Revision {
  return { metadata: { name, annotations: { [SidecarSetHashAnnotation]: set.metadata!.annotations![SidecarSetHashAnnotation]! } }, data: JSON.parse(revisionData(set)), revision: 1 };
}

test('diffLookup: the named revision when it has the hash, else any with the hash, else undefined', () => {
  const v1 = makeSet({ containers: [base] });
  const v2 = makeSet({ containers: [{ ...base, resources: { requests: { cpu: '1' } } }] });
  const v3 = makeSet({ containers: [{ ...base, env: [{ name: 'A', value: '1' }] }] });
  const lookup = diffLookup(v2, [revisionOf(v1, 'scs-1'), revisionOf(v3, 'scs-3')]);
  const h1 = v1.metadata!.annotations![SidecarSetHashAnnotation]!;
  assert.deepEqual(lookup({ hash: h1, controllerRevision: 'scs-1' }), { resized: ['sidecar'], fields: [] });
  assert.deepEqual(lookup({ hash: h1, controllerRevision: 'scs-3' }), { resized: ['sidecar'], fields: [] }, 'a lagging controllerRevision: found by hash');
  assert.deepEqual(lookup({ hash: h1 }), { resized: ['sidecar'], fields: [] });
  assert.deepEqual(lookup({ hash: v3.metadata!.annotations![SidecarSetHashAnnotation]! }), { resized: ['sidecar'], fields: ['env'] });
  assert.equal(lookup({ hash: 'unknown' }), undefined);
  assert.equal(lookup({ hash: '' }), undefined);
});

test('diffLookup: revision data stored as JSON text reads the same; unreadable data reads as unknown', () => {
  const v1 = makeSet({ containers: [base] });
  const v2 = makeSet({ containers: [{ ...base, resources: { requests: { cpu: '1' } } }] });
  const text = { ...revisionOf(v1, 'scs-1'), data: revisionData(v1) as unknown as object };
  assert.deepEqual(diffLookup(v2, [text])({ hash: v1.metadata!.annotations![SidecarSetHashAnnotation]! }), { resized: ['sidecar'], fields: [] });
  const broken = { ...revisionOf(v1, 'scs-1'), data: '{not json' as unknown as object };
  assert.equal(diffLookup(v2, [broken])({ hash: v1.metadata!.annotations![SidecarSetHashAnnotation]! }), undefined);
});
