// Vectors after upstream imagepulljob_event_handler_test.go (v1.9, kruise#2483): TestGetChangedSpecTags and
// TestGetChangedStatusTags, written from spec/openkruise-v1.9.md §7.3.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ImageSpec, ImageStatus, NodeImage } from '../../shared/api/node-image.js';
import { changedSpecTags, changedStatusTags, changedTags, concerns, type ChangedTags } from './changed-tags.js';

const spec = (images: Record<string, ImageSpec>): NodeImage => ({ metadata: { name: 'n1' }, spec: { images } });
const status = (imageStatuses: Record<string, ImageStatus>): NodeImage =>
  ({ metadata: { name: 'n1' }, status: { desired: 0, pulling: 0, succeeded: 0, failed: 0, waiting: 0, imageStatuses } });
const tag = (t: string, version = 0, extra: object = {}) => ({ tag: t, version, createdAt: '2025-01-01T00:00:00Z', ...extra });
const st = (t: string, phase: 'Pulling' | 'Succeeded' | 'Failed', version = 0) => ({ tag: t, phase, version });
/** `image: all` or `image: t1,t2` (sorted), for comparing. */
const show = (c: ChangedTags) => Object.fromEntries([...c].map(([k, v]) => [k, v === 'all' ? 'all' : [...v].sort().join(',')]));

describe('changedSpecTags (upstream TestGetChangedSpecTags)', () => {
  const cases: { name: string; old?: NodeImage; now?: NodeImage; want: Record<string, string> }[] = [
    { name: 'no change', old: spec({ nginx: { tags: [tag('1')] } }), now: spec({ nginx: { tags: [tag('1')] } }), want: {} },
    { name: 'tag added', old: spec({ nginx: { tags: [tag('1')] } }), now: spec({ nginx: { tags: [tag('1'), tag('2')] } }), want: { nginx: '2' } },
    { name: 'tag removed (TTL expiry)', old: spec({ nginx: { tags: [tag('1'), tag('2')] } }), now: spec({ nginx: { tags: [tag('2')] } }), want: { nginx: '1' } },
    { name: 'tag changed (version bump)', old: spec({ nginx: { tags: [tag('1'), tag('2')] } }), now: spec({ nginx: { tags: [tag('1', 1), tag('2')] } }), want: { nginx: '1' } },
    { name: 'tag changed (owner added)', old: spec({ nginx: { tags: [tag('1')] } }),
      now: spec({ nginx: { tags: [tag('1', 0, { ownerReferences: [{ uid: 'u' }] })] } }), want: { nginx: '1' } },
    { name: 'pullSecrets changed: the whole image', old: spec({ nginx: { tags: [tag('1')] } }),
      now: spec({ nginx: { tags: [tag('1')], pullSecrets: [{ namespace: 'kruise-daemon-config', name: 's' }] } }), want: { nginx: 'all' } },
    { name: 'sandboxConfig changed: the whole image', old: spec({ nginx: { tags: [tag('1')] } }),
      now: spec({ nginx: { tags: [tag('1')], sandboxConfig: { labels: { a: 'b' } } } }), want: { nginx: 'all' } },
    { name: 'image removed: the whole image', old: spec({ nginx: { tags: [tag('1')] }, redis: { tags: [tag('7')] } }), now: spec({ redis: { tags: [tag('7')] } }), want: { nginx: 'all' } },
    { name: 'image added: its tags', old: spec({}), now: spec({ nginx: { tags: [tag('1'), tag('2')] } }), want: { nginx: '1,2' } },
    { name: 'changes in two images', old: spec({ nginx: { tags: [tag('1')] }, redis: { tags: [tag('7')] } }),
      now: spec({ nginx: { tags: [tag('1'), tag('3')] }, redis: { tags: [tag('7', 2)] } }), want: { nginx: '3', redis: '7' } },
    { name: 'no spec on either side', old: { metadata: { name: 'n1' } }, now: { metadata: { name: 'n1' } }, want: {} },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(show(changedSpecTags(c.old, c.now)), c.want));
});

describe('changedStatusTags (upstream TestGetChangedStatusTags)', () => {
  const cases: { name: string; old: NodeImage; now: NodeImage; want: Record<string, string> }[] = [
    { name: 'no change', old: status({ nginx: { tags: [st('1', 'Pulling')] } }), now: status({ nginx: { tags: [st('1', 'Pulling')] } }), want: {} },
    { name: 'progress of one tag (daemon report)', old: status({ nginx: { tags: [st('1', 'Pulling'), st('2', 'Pulling')] } }),
      now: status({ nginx: { tags: [st('1', 'Succeeded'), st('2', 'Pulling')] } }), want: { nginx: '1' } },
    { name: 'status tag added', old: status({ nginx: { tags: [st('1', 'Pulling')] } }), now: status({ nginx: { tags: [st('1', 'Pulling'), st('2', 'Pulling')] } }), want: { nginx: '2' } },
    { name: 'status tag removed', old: status({ nginx: { tags: [st('1', 'Succeeded'), st('2', 'Pulling')] } }), now: status({ nginx: { tags: [st('2', 'Pulling')] } }), want: { nginx: '1' } },
    { name: 'image status removed: the whole image', old: status({ nginx: { tags: [st('1', 'Succeeded')] } }), now: status({}), want: { nginx: 'all' } },
    { name: 'image status added: its tags', old: status({}), now: status({ nginx: { tags: [st('1', 'Pulling')] } }), want: { nginx: '1' } },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(show(changedStatusTags(c.old, c.now)), c.want));
});

describe('changedTags', () => {
  it('joins spec and status changes; a whole image wins over its tags', () => {
    const old: NodeImage = { ...spec({ nginx: { tags: [tag('1')] }, redis: { tags: [tag('7')] } }), status: status({ nginx: { tags: [st('1', 'Pulling')] } }).status };
    const now: NodeImage = { ...spec({ nginx: { tags: [tag('1'), tag('2')] } }), status: status({ nginx: { tags: [st('1', 'Succeeded')] }, redis: { tags: [] } }).status };
    const c = changedTags(old, now);
    assert.deepEqual(show(c), { nginx: '1,2', redis: 'all' });
    assert.equal(concerns(c, { name: 'nginx', tag: '2' }), true);
    assert.equal(concerns(c, { name: 'nginx', tag: '3' }), false);
    assert.equal(concerns(c, { name: 'redis', tag: 'any' }), true);
    assert.equal(concerns(c, { name: 'busybox', tag: '1' }), false);
  });
});
