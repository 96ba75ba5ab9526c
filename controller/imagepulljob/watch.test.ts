import assert from 'node:assert/strict';
import { describe, it, test } from 'node:test';
import type { ImagePullJob, ImagePullJobSpec } from '../../shared/api/image-pull-job.js';
import type { Pod } from '../../shared/api/meta.js';
import type { NodeImage } from '../../shared/api/node-image.js';
import { OwnerIndex } from './owner-index.js';
import { normalizeImageRef } from '../../shared/domain/image-ref.js';
import { mayTarget } from './targets.js';
import { jobsForNodeImage, jobsForNodeImageUpdate, jobsForPod, jobsForSecret, type WatchState } from './watch.js';

const job = (name: string, spec: Partial<ImagePullJobSpec>, o: { done?: boolean; ns?: string } = {}): ImagePullJob => ({
  metadata: { name, namespace: o.ns ?? 'ns', uid: `u-${name}` }, spec: { image: 'nginx', completionPolicy: {}, ...spec },
  ...(o.done ? { status: { desired: 0, active: 0, succeeded: 0, failed: 0, completionTime: '2025-01-01T00:00:00Z' } } : {}),
});
const ni = (name: string, labels: Record<string, string>): NodeImage => ({ metadata: { name, labels }, spec: {} });
const pod = (labels: Record<string, string>, node: string, ns = 'ns'): Pod => ({ metadata: { name: 'p', namespace: ns, labels }, spec: { containers: [], nodeName: node }, status: { phase: 'Running' } });

function state(jobs: ImagePullJob[], last: Record<string, string[]> = {}, pods: Pod[] = []): WatchState {
  const index = new OwnerIndex();
  return {
    jobs: () => jobs, index,
    lastTargets: new Map(Object.entries(last).map(([k, v]) => [k, new Set(v)])),
    mayTarget: (j, n) => mayTarget(j, n, () => pods.filter((p) => p.spec?.nodeName === n.metadata?.name)),
    imageOf: (j) => normalizeImageRef(j.spec?.image ?? ''),
  };
}

test('NodeImage events wake the jobs that target it now or did last time, and its owners', () => {
  const jobs = [job('all', {}), job('gpu', { selector: { matchLabels: { gpu: 'yes' } } }), job('named', { selector: { names: ['n2'] } }),
    job('done', {}, { done: true }), job('empty', { selector: {} })];
  const s = state(jobs, { 'ns/gpu': ['n1'] });
  assert.deepEqual([...jobsForNodeImage(s, 'n1', ni('n1', { gpu: 'no' }), [])].sort(), ['ns/all', 'ns/empty', 'ns/gpu'], 'gpu: label removed, still woken by its last targets');
  assert.deepEqual([...jobsForNodeImage(s, 'n2', ni('n2', { gpu: 'yes' }), [])].sort(), ['ns/all', 'ns/empty', 'ns/gpu', 'ns/named']);
  assert.deepEqual([...jobsForNodeImage(s, 'n3', undefined, [{ uid: 'u-done', key: 'ns/done' }])].sort(), ['ns/done'], 'a deleted NodeImage wakes its former owners');
});

test('pod events wake podSelector jobs of the namespace', () => {
  const jobs = [job('web', { podSelector: { matchLabels: { app: 'web' } } }), job('db', { podSelector: { matchLabels: { app: 'db' } } }),
    job('other', { podSelector: { matchLabels: { app: 'web' } } }, { ns: 'other' }), job('nodes', {})];
  const s = state(jobs, { 'ns/db': ['n9'] });
  assert.deepEqual(jobsForPod(s, pod({ app: 'web' }, 'n1')), ['ns/web']);
  assert.deepEqual(jobsForPod(s, pod({ app: 'web' }, 'n9')), ['ns/web', 'ns/db'], 'db: its pod there changed labels');
});

test('secret events: sources wake the jobs listing them, copies wake the jobs they reference', () => {
  const jobs = [job('a', { pullSecrets: ['reg'] }), job('b', { pullSecrets: ['other'] }), job('c', { pullSecrets: ['reg'] }, { done: true })];
  const s = state(jobs);
  assert.deepEqual(jobsForSecret(s, { metadata: { namespace: 'ns', name: 'reg' } }, 'kruise-daemon-config'), ['ns/a']);
  assert.deepEqual(jobsForSecret(s, { metadata: { namespace: 'kruise-daemon-config', name: 'reg-xxxxx',
    annotations: { 'imagepulljobs.kruise.io/references': 'ns/a,x/y' } } }, 'kruise-daemon-config'), ['ns/a', 'x/y']);
});

// After upstream TestNodeImageEventHandler_handleUpdate_TagLevel (kruise#2483, spec/openkruise-v1.9.md §7.3).
describe('jobsForNodeImageUpdate (upstream TestNodeImageEventHandler_handleUpdate_TagLevel)', () => {
  const owner = (j: string) => ({ apiVersion: 'apps.kruise.io/v1beta1', kind: 'ImagePullJob', namespace: 'ns', name: j, uid: `u-${j}` });
  const base = (): NodeImage => ({
    metadata: { name: 'n1', labels: { zone: 'a' } },
    spec: { images: { nginx: { tags: [{ tag: '1', version: 0, ownerReferences: [owner('a')] }, { tag: '2', version: 0, ownerReferences: [owner('b')] }] },
      redis: { tags: [{ tag: '7', version: 0, ownerReferences: [owner('c')] }] } } },
    status: { desired: 3, pulling: 3, succeeded: 0, failed: 0, waiting: 0,
      imageStatuses: { nginx: { tags: [{ tag: '1', phase: 'Pulling', version: 0 }, { tag: '2', phase: 'Pulling', version: 0 }] } } },
  });
  const jobs = [job('a', { image: 'nginx:1' }), job('b', { image: 'nginx:2' }), job('c', { image: 'redis:7' }),
    job('done', { image: 'nginx:1' }, { done: true }), job('zoned', { image: 'nginx:3', selector: { matchLabels: { zone: 'b' } } })];
  const s = state(jobs, { 'ns/a': ['n1'], 'ns/b': ['n1'], 'ns/c': ['n1'], 'ns/done': ['n1'] });
  const wake = (edit: (ni: NodeImage) => void) => {
    const before = base();
    const after = structuredClone(before);
    edit(after);
    return [...jobsForNodeImageUpdate(s, 'n1', before, after, [])].sort();
  };
  const cases: { name: string; edit: (ni: NodeImage) => void; want: string[] }[] = [
    { name: 'a daemon report for one tag wakes that tag\'s job only', edit: (ni) => { ni.status!.imageStatuses!.nginx!.tags[0]!.phase = 'Succeeded'; }, want: ['ns/a'] },
    { name: 'a tag removed by TTL wakes that tag\'s job only', edit: (ni) => { ni.spec!.images!.nginx!.tags.splice(1, 1); }, want: ['ns/b'] },
    { name: 'a new tag of another job wakes none of the siblings', edit: (ni) => { ni.spec!.images!.nginx!.tags.push({ tag: '9', version: 0 }); }, want: [] },
    { name: 'the image\'s pullSecrets changed: every job of the image', edit: (ni) => { ni.spec!.images!.nginx!.pullSecrets = [{ namespace: 'k', name: 's' }]; }, want: ['ns/a', 'ns/b'] },
    { name: 'the image removed from spec: every job of the image', edit: (ni) => { delete ni.spec!.images!.nginx; }, want: ['ns/a', 'ns/b'] },
    { name: 'the image status removed: every job of the image', edit: (ni) => { delete ni.status!.imageStatuses!.nginx; }, want: ['ns/a', 'ns/b'] },
    { name: 'another image changed: only its job', edit: (ni) => { ni.spec!.images!.redis!.tags[0]!.version = 1; }, want: ['ns/c'] },
    { name: 'labels flip a job\'s match: that job, whatever its tag', edit: (ni) => { ni.metadata!.labels = { zone: 'b' }; }, want: ['ns/zoned'] },
    { name: 'nothing changed: nobody', edit: () => {}, want: [] },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(wake(c.edit), c.want));

  it('a NodeImage being deleted wakes every job targeting it, as create and delete do', () => {
    const got = wake((ni) => { ni.metadata!.deletionTimestamp = new Date(); });
    assert.deepEqual(got, ['ns/a', 'ns/b', 'ns/c']);
  });
  it('without the filter (jobsForNodeImage) a sibling\'s report wakes every job there', () => {
    const after = base();
    after.status!.imageStatuses!.nginx!.tags[0]!.phase = 'Succeeded';
    assert.deepEqual([...jobsForNodeImage(s, 'n1', after, [])].sort(), ['ns/a', 'ns/b', 'ns/c']);
  });
});
