import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ImageListPullJob } from '../../shared/api/image-list-pull-job.js';
import type { ImagePullJob, ImagePullJobStatus } from '../../shared/api/image-pull-job.js';
import { computeStatus, failedImageMessage } from './job-status.js';

const NOW = '2025-06-01T12:00:00Z';
const list = (type = 'Always', status?: ImageListPullJob['status']): ImageListPullJob =>
  ({ metadata: { name: 'pre', namespace: 'ns' }, spec: { images: ['a:1', 'b:1', 'c:1'], completionPolicy: { type } }, ...(status ? { status } : {}) });
const child = (name: string, status?: Partial<ImagePullJobStatus>): ImagePullJob =>
  ({ metadata: { name }, spec: { image: '', completionPolicy: {} }, ...(status ? { status: { desired: 0, active: 0, succeeded: 0, failed: 0, ...status } } : {}) });
const started = '2025-06-01T11:00:00Z';

describe('computeStatus (spec §6 step 5)', () => {
  it('counts active, completed, succeeded and failed images over the children that started', () => {
    const kept = new Map([
      ['a:1', child('pre-a', { startTime: started, desired: 2, active: 1, succeeded: 1, failed: 0 })],
      ['b:1', child('pre-b', { startTime: started, desired: 2, active: 0, succeeded: 1, failed: 1 })],
      ['c:1', child('pre-c')],
    ]);
    assert.deepEqual(computeStatus(list(), kept, NOW), {
      startTime: NOW, desired: 3, active: 1, completed: 1, succeeded: 0,
      failedImageStatuses: [{ imagePullJob: 'pre-b', name: 'b:1', message: "Please check for details which nodes failed by 'kubectl get ImagePullJob pre-b'." }],
    });
    assert.equal(failedImageMessage('x'), "Please check for details which nodes failed by 'kubectl get ImagePullJob x'.");
  });
  it('completes when every image\'s child completed; a child matching no node counts as completed', () => {
    const kept = new Map([
      ['a:1', child('pre-a', { startTime: started, desired: 1, succeeded: 1 })],
      ['b:1', child('pre-b', { startTime: started, desired: 0 })],
      ['c:1', child('pre-c', { startTime: started, desired: 1, failed: 1 })],
    ]);
    const st = computeStatus(list('Always', { startTime: started, desired: 3, active: 0, completed: 0, succeeded: 0 }), kept, NOW);
    assert.deepEqual([st.startTime, st.completionTime, st.completed, st.succeeded], [started, NOW, 3, 2]);
  });
  it('never completes with completionPolicy Never, nor while an image has no child', () => {
    const done = child('d', { startTime: started, desired: 1, succeeded: 1 });
    assert.equal(computeStatus(list('Never'), new Map([['a:1', done], ['b:1', done], ['c:1', done]]), NOW).completionTime, undefined);
    assert.equal(computeStatus(list(), new Map([['a:1', done], ['b:1', done]]), NOW).completionTime, undefined);
  });
});
