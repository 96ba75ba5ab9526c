import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ImagePullJob, ImagePullJobSpec } from '../../shared/api/image-pull-job.js';
import type { Pod } from '../../shared/api/meta.js';
import type { NodeImage } from '../../shared/api/node-image.js';
import { OwnerIndex } from './owner-index.js';
import { mayTarget } from './targets.js';
import { jobsForNodeImage, jobsForPod, jobsForSecret, type WatchState } from './watch.js';

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
