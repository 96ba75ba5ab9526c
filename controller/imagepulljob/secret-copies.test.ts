// Vectors after upstream imagepulljob_controller_test.go (v1.9): TestClassifyPullSecretsForJob_*, TestClaimImagePullJobSecrets*,
// TestSyncJobPullSecrets_ReleaseSecrets / _CreateNewSecret / _NoPullSecrets (spec/openkruise-v1.9.md §7.1).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { V1Secret } from '@kubernetes/client-node';
import type { ImagePullJob } from '../../shared/api/image-pull-job.js';
import { classify, copyName, planSecrets, type SecretPlanInput } from './secret-copies.js';

const NS = 'kruise-daemon-config';
const SOURCE_KEY = 'imagepulljobs.kruise.io/source-key';
const REFS = 'imagepulljobs.kruise.io/references';
const MODE = 'imagepulljobs.kruise.io/mode';
const b64 = (v: string) => Buffer.from(v).toString('base64');
const src = (name: string, data: Record<string, string> = { key: b64('value') }, extra: Partial<V1Secret['metadata']> = {}): V1Secret =>
  ({ metadata: { name, namespace: 'default', uid: `s-${name}`, ...extra }, data });
const job = (pullSecrets: string[] | undefined, o: { name?: string; ns?: string } = {}): ImagePullJob =>
  ({ metadata: { name: o.name ?? 'test-job', namespace: o.ns ?? 'default', uid: 'u-j' }, spec: { image: 'nginx', completionPolicy: {}, ...(pullSecrets ? { pullSecrets } : {}) } });
const copy = (name: string, annotations: Record<string, string>, data: Record<string, string> = { key: b64('value') }, extra: Partial<V1Secret['metadata']> = {}): V1Secret =>
  ({ metadata: { name, namespace: NS, resourceVersion: '7', uid: `c-${name}`, annotations, ...extra }, data });
const input = (o: Partial<SecretPlanInput> & { sources?: V1Secret[] }): SecretPlanInput => ({
  job: job(['my-secret']), finished: false, copies: [], daemonNamespace: NS,
  source: (n) => (o.sources ?? []).find((s) => s.metadata?.name === n), ...o,
});
const names = (l: V1Secret[]) => l.map((s) => s.metadata?.name);

describe('classify (upstream classifyPullSecretsForJob)', () => {
  it('TestClassifyPullSecretsForJob_SecretPriorityWithJobRef: a copy already referencing the job wins over the first by name', () => {
    const c = classify(input({ job: job(['source-secret']), copies: [
      copy('bbb-secret', { [SOURCE_KEY]: 'default/source-secret', [REFS]: 'default/test-job' }),
      copy('aaa-secret', { [SOURCE_KEY]: 'default/source-secret', [REFS]: 'default/other-job' }),
    ] }));
    assert.deepEqual([...c.claim].map(([k, v]) => [k, v?.metadata?.name]), [['source-secret', 'bbb-secret']]);
    assert.deepEqual(c.release, []);
  });
  it('without a copy referencing the job, the first copy by name is chosen', () => {
    const c = classify(input({ job: job(['source-secret']), copies: [
      copy('bbb-secret', { [SOURCE_KEY]: 'default/source-secret', [REFS]: 'default/x' }),
      copy('aaa-secret', { [SOURCE_KEY]: 'default/source-secret', [REFS]: 'default/other-job' }),
    ] }));
    assert.equal(c.claim.get('source-secret')?.metadata?.name, 'aaa-secret');
  });
  it('TestClassifyPullSecretsForJob_JobBeingDeleted: a finished job releases what references it and claims nothing', () => {
    const c = classify(input({ job: job(['source-secret']), finished: true, copies: [
      copy('synced-secret', { [SOURCE_KEY]: 'default/source-secret', [REFS]: 'default/test-job' }),
      copy('other-secret', { [SOURCE_KEY]: 'default/other-source', [REFS]: 'default/other-job' }),
    ] }));
    assert.deepEqual(c.claim.size, 0);
    assert.deepEqual(names(c.release), ['synced-secret']);
  });
  it('copies being deleted are skipped; copies of other namespaces\' sources are not chosen', () => {
    const c = classify(input({ job: job(['s']), copies: [
      copy('a', { [SOURCE_KEY]: 'default/s', [REFS]: 'default/test-job' }, undefined, { deletionTimestamp: new Date() }),
      copy('b', { [SOURCE_KEY]: 'other/s', [REFS]: 'other/j' }),
    ] }));
    assert.equal(c.claim.get('s'), undefined);
    assert.deepEqual(c.release, []);
  });
});

describe('planSecrets claim (upstream TestClaimImagePullJobSecrets)', () => {
  it('create new secret successfully: `<source>-<6 hex>`, source annotations + source key, references, mode batch; ref with mode', () => {
    const plan = planSecrets(input({ sources: [src('my-secret', { username: b64('admin'), password: b64('password') }, { labels: { team: 't' },
      annotations: { 'custom.annotation': 'value', 'kubectl.kubernetes.io/last-applied-configuration': '{}' } })] }));
    const name = copyName('default/my-secret');
    assert.match(name, /^my-secret-[0-9a-f]{6}$/);
    assert.deepEqual(plan.create, [{ apiVersion: 'v1', kind: 'Secret',
      metadata: { name, namespace: NS, labels: { team: 't' },
        annotations: { 'custom.annotation': 'value', [SOURCE_KEY]: 'default/my-secret', [REFS]: 'default/test-job', [MODE]: 'batch' } },
      data: { username: b64('admin'), password: b64('password') } }]);
    assert.deepEqual(plan.refs, [{ namespace: NS, name, mode: 'batch' }]);
    assert.deepEqual([plan.update, plan.delete, plan.missing], [[], [], []]);
  });
  it('update existing secret successfully: data from the source, the job added to empty references, no mode added', () => {
    const plan = planSecrets(input({ sources: [src('my-secret', { username: b64('admin'), password: b64('password') })],
      copies: [copy('my-secret-generated', { [REFS]: '', [SOURCE_KEY]: 'default/my-secret' }, { username: b64('old-admin') })] }));
    assert.deepEqual(plan.update.map((s) => [s.metadata?.name, s.metadata?.annotations, s.data, s.metadata?.resourceVersion]), [[
      'my-secret-generated', { [REFS]: 'default/test-job', [SOURCE_KEY]: 'default/my-secret' }, { username: b64('admin'), password: b64('password') }, '7']]);
    assert.deepEqual(plan.refs, [{ namespace: NS, name: 'my-secret-generated' }], 'a v1.8 copy (no mode annotation) is referenced without mode');
    assert.deepEqual(plan.create, []);
  });
  it('skip update when no changes', () => {
    const plan = planSecrets(input({ sources: [src('my-secret')],
      copies: [copy('my-secret-generated', { [REFS]: 'default/test-job', [SOURCE_KEY]: 'default/my-secret', [MODE]: 'batch' })] }));
    assert.deepEqual([plan.create, plan.update, plan.delete], [[], [], []]);
    assert.deepEqual(plan.refs, [{ namespace: NS, name: 'my-secret-generated', mode: 'batch' }]);
  });
  it('handle multiple secrets: another job\'s copy is shared (references sorted, comma-joined); a missing copy is created', () => {
    const plan = planSecrets(input({ job: job(['secret1', 'secret2']), sources: [src('secret1', { key: b64('value1') }), src('secret2', { key: b64('value2') })],
      copies: [copy('secret2-generated', { [REFS]: 'default/other-job', [SOURCE_KEY]: 'default/secret2' }, { key: b64('value2') })] }));
    assert.deepEqual(plan.update.map((s) => [s.metadata?.name, s.metadata?.annotations?.[REFS]]), [['secret2-generated', 'default/other-job,default/test-job']]);
    assert.deepEqual(plan.create.map((s) => [s.metadata?.name, s.metadata?.annotations?.[REFS], s.metadata?.annotations?.[MODE]]),
      [[copyName('default/secret1'), 'default/test-job', 'batch']]);
    assert.deepEqual(plan.refs.map((r) => r.name), [copyName('default/secret1'), 'secret2-generated']);
  });
  it('TestClaimImagePullJobSecrets_SourceSecretNotFound: skipped, reported, nothing referenced', () => {
    const plan = planSecrets(input({ job: job(['nonexistent-secret']) }));
    assert.deepEqual(plan, { create: [], update: [], delete: [], refs: [], missing: ['nonexistent-secret'] });
  });
  it('TestClaimImagePullJobSecrets_UpdateExistingSecret: new data replaces the old, both jobs referenced', () => {
    const plan = planSecrets(input({ sources: [src('my-secret', { 'updated-data': b64('new-value') })],
      copies: [copy('my-secret-generated', { [REFS]: 'default/other-job', [SOURCE_KEY]: 'default/my-secret' }, { 'old-data': b64('old-value') })] }));
    assert.deepEqual(plan.update[0]?.data, { 'updated-data': b64('new-value') });
    assert.equal(plan.update[0]?.metadata?.annotations?.[REFS], 'default/other-job,default/test-job');
  });
  it('a second job of another namespace shares the copy of its own source only', () => {
    const shared = copy(copyName('default/my-secret'), { [REFS]: 'default/test-job', [SOURCE_KEY]: 'default/my-secret', [MODE]: 'batch' });
    const plan = planSecrets(input({ job: job(['my-secret'], { ns: 'other' }), sources: [{ ...src('my-secret'), metadata: { name: 'my-secret', namespace: 'other' } }], copies: [shared] }));
    assert.deepEqual(plan.create.map((s) => s.metadata?.annotations?.[SOURCE_KEY]), ['other/my-secret']);
    assert.deepEqual(plan.update, []);
  });
});

describe('planSecrets release (upstream TestSyncJobPullSecrets_*)', () => {
  it('ReleaseSecrets: a copy of a source no longer listed loses the job, kept for the other job', () => {
    const plan = planSecrets(input({ job: job(['new-secret']), sources: [src('new-secret')],
      copies: [copy('old-secret', { [SOURCE_KEY]: 'default/old-secret', [REFS]: 'default/test-job,default/other-job' })] }));
    assert.deepEqual(plan.update.map((s) => [s.metadata?.name, s.metadata?.annotations?.[REFS], s.metadata?.resourceVersion]), [['old-secret', 'default/other-job', '7']]);
    assert.deepEqual(plan.create.map((s) => s.metadata?.annotations?.[SOURCE_KEY]), ['default/new-secret']);
  });
  it('the last job out deletes the copy (conditional on the version read)', () => {
    const plan = planSecrets(input({ finished: true, copies: [copy('c', { [SOURCE_KEY]: 'default/my-secret', [REFS]: 'default/test-job' })] }));
    assert.deepEqual(plan.delete.map((s) => [s.metadata?.name, s.metadata?.resourceVersion]), [['c', '7']]);
    assert.deepEqual([plan.update, plan.refs], [[], []]);
  });
  it('NoPullSecrets: a running job without pullSecrets returns at once (#2483), even with stray copies referencing it', () => {
    const stray = copy('c', { [SOURCE_KEY]: 'default/x', [REFS]: 'default/test-job' });
    assert.deepEqual(planSecrets(input({ job: job(undefined), copies: [stray] })), { create: [], update: [], delete: [], refs: [], missing: [] });
    assert.deepEqual(planSecrets(input({ job: job(undefined, { ns: NS }) })), { create: [], update: [], delete: [], refs: [], missing: [] });
    assert.deepEqual(names(planSecrets(input({ job: job(undefined), finished: true, copies: [stray] })).delete), ['c'], 'once finished it still releases');
  });
  it("a job in the daemon's own namespace refers to the originals and copies nothing", () => {
    const plan = planSecrets(input({ job: job(['reg', 'nope'], { ns: NS }), sources: [{ ...src('reg'), metadata: { name: 'reg', namespace: NS } }] }));
    assert.deepEqual(plan, { create: [], update: [], delete: [], refs: [{ namespace: NS, name: 'reg' }], missing: ['nope'] });
  });
});

describe('copyName', () => {
  it('is stable per source key, differs between keys, and fits a Secret name', () => {
    assert.equal(copyName('default/a'), copyName('default/a'));
    assert.notEqual(copyName('default/a'), copyName('other/a'));
    assert.equal(copyName(`default/${'x'.repeat(253)}`).length, 253);
  });
});
