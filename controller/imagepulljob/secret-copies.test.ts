import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { V1Secret } from '@kubernetes/client-node';
import type { ImagePullJob } from '../../shared/api/image-pull-job.js';
import { copyName, planSecrets, type SecretPlanInput } from './secret-copies.js';

const NS = 'kruise-daemon-config';
const data = (v: string) => ({ '.dockerconfigjson': Buffer.from(v).toString('base64') });
const src = (name: string, v = 'a', uid = `s-${name}`): V1Secret => ({
  metadata: { name, namespace: 'app', uid, labels: { team: 't' }, annotations: { note: 'n', 'kubectl.kubernetes.io/last-applied-configuration': '{...}' } },
  type: 'kubernetes.io/dockerconfigjson', data: data(v),
});
const job = (pullSecrets: string[], ns = 'app'): ImagePullJob => ({ metadata: { name: 'j', namespace: ns, uid: 'u-j' }, spec: { image: 'nginx', completionPolicy: {}, pullSecrets } });
const copy = (s: V1Secret, refs: string, v = 'a'): V1Secret => ({
  metadata: { name: copyName(s, 'u-j'), namespace: NS, resourceVersion: '7', labels: { team: 't', 'imagepulljobs.kruise.io/source-uid': s.metadata!.uid! },
    annotations: { note: 'n', 'imagepulljobs.kruise.io/source-key': `app/${s.metadata!.name}`, 'imagepulljobs.kruise.io/references': refs } },
  type: 'kubernetes.io/dockerconfigjson', data: data(v),
});
const input = (o: Partial<SecretPlanInput> & { sources?: V1Secret[] }): SecretPlanInput => ({
  job: job(['reg']), finished: false, copies: [], daemonNamespace: NS,
  source: (n) => (o.sources ?? [src('reg')]).find((s) => s.metadata?.name === n), ...o,
});

test('copy names look like generateName output and are stable per job and source', () => {
  const n = copyName(src('reg'), 'u-j');
  assert.match(n, /^reg-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  assert.equal(copyName(src('reg'), 'u-j'), n);
  assert.notEqual(copyName(src('reg'), 'u-other'), n);
  assert.equal(copyName(src('x'.repeat(80)), 'u-j').length, 63);
});

test('first reconcile creates a labelled, annotated copy and refers NodeImages to it', () => {
  const plan = planSecrets(input({}));
  const { resourceVersion: _rv, ...metadata } = copy(src('reg'), 'app/j').metadata!;
  assert.deepEqual(plan.create, [{ apiVersion: 'v1', kind: 'Secret', metadata, type: 'kubernetes.io/dockerconfigjson', data: data('a') }],
    'labels and annotations of the source (not kubectl last-applied), source uid label, source key and references');
  assert.deepEqual(plan.refs, [{ namespace: NS, name: copyName(src('reg'), 'u-j') }]);
  assert.deepEqual([plan.update, plan.delete, plan.missing], [[], [], []]);
});

test('in sync: nothing to do; source data changed: the copy is updated', () => {
  const same = planSecrets(input({ copies: [copy(src('reg'), 'app/j')] }));
  assert.deepEqual([same.create, same.update, same.delete], [[], [], []]);
  const changed = planSecrets(input({ sources: [src('reg', 'b')], copies: [copy(src('reg'), 'app/j')] }));
  assert.equal(changed.update.length, 1);
  assert.deepEqual(changed.update[0]!.data, data('b'));
  assert.equal(changed.update[0]!.metadata?.resourceVersion, '7', 'updates are conditional on the version read');
});

test('released when no longer listed, when the source was recreated, and when the job finishes', () => {
  const other = planSecrets(input({ job: job([]), copies: [copy(src('reg'), 'app/j')] }));
  assert.deepEqual(other.delete.map((s) => s.metadata?.name), [copyName(src('reg'), 'u-j')]);
  const recreated = planSecrets(input({ sources: [src('reg', 'a', 's-new')], copies: [copy(src('reg'), 'app/j')] }));
  assert.equal(recreated.delete.length, 1);
  assert.equal(recreated.create.length, 1);
  const finished = planSecrets(input({ finished: true, copies: [copy(src('reg'), 'app/j,other/k')] }));
  assert.deepEqual(finished.update[0]!.metadata?.annotations?.['imagepulljobs.kruise.io/references'], 'other/k', 'still referenced elsewhere: kept');
  assert.deepEqual(finished.refs, []);
});

test("copies of other jobs are not touched; missing sources are reported; the daemon's own namespace needs no copies", () => {
  const foreign = planSecrets(input({ copies: [{ ...copy(src('reg'), 'other/k'), metadata: { ...copy(src('reg'), 'other/k').metadata, name: 'reg-zzzzz' } }] }));
  assert.equal(foreign.create.length, 1);
  assert.deepEqual([foreign.update, foreign.delete], [[], []]);
  assert.deepEqual(planSecrets(input({ job: job(['reg', 'nope']) })).missing, ['nope']);
  const local = planSecrets(input({ job: job(['reg', 'nope'], NS) }));
  assert.deepEqual(local, { create: [], update: [], delete: [], refs: [{ namespace: NS, name: 'reg' }], missing: ['nope'] });
});
