import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { V1Secret } from '@kubernetes/client-node';
import { ImagePullJobSecretReferencesAnnotation as Refs } from '../../shared/api/image-pull-job.js';
import { fakeApi } from '../sidecarset/reconcile-harness.js';
import { ensurePrePullSecrets, releasePrePullSecrets } from './secrets.js';

const NS = 'kruise-daemon-config';
const owner = { kind: 'CloneSet' as const, name: 'web', uid: 'uid-web' };

function setup() {
  const api = fakeApi();
  const io = { rest: api.rest, daemonNamespace: NS, copies: () => [...api.table('secrets').values()].filter((s) => s.metadata?.namespace === NS) as V1Secret[] };
  for (const ns of ['a', 'b']) {
    api.put('secrets', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'regcred', namespace: ns, uid: `uid-${ns}` }, data: { k: Buffer.from(ns).toString('base64') } } as never);
  }
  return { api, io };
}

test('each namespace gets its own copy, named for the workload uid, and the refs list them', async () => {
  const { api, io } = setup();
  const { refs, missing } = await ensurePrePullSecrets(io, owner, new Map([['a', ['regcred']], ['b', ['regcred', 'gone']]]));
  assert.deepEqual(missing, ['b/gone']);
  const copies = io.copies();
  assert.equal(copies.length, 2);
  assert.deepEqual(refs.map((r) => r.name).sort(), copies.map((c) => c.metadata!.name).sort());
  assert.deepEqual(copies.map((c) => c.metadata!.annotations![Refs]).sort(), ['a/CloneSet:web', 'b/CloneSet:web']);
  // Again: nothing new is written.
  api.log.length = 0;
  await ensurePrePullSecrets(io, owner, new Map([['a', ['regcred']]]));
  assert.deepEqual(api.log, []);
});

test('release deletes the workload\'s copies and leaves a copy another holder also references, minus the reference', async () => {
  const { api, io } = setup();
  await ensurePrePullSecrets(io, owner, new Map([['a', ['regcred']], ['b', ['regcred']]]));
  const [first] = io.copies();
  const shared = `${first!.metadata!.annotations![Refs]},a/some-job`;
  api.put('secrets', { ...first!, metadata: { ...first!.metadata, annotations: { ...first!.metadata!.annotations, [Refs]: shared } } } as never);
  assert.equal(await releasePrePullSecrets(io, owner), 2);
  const left = io.copies();
  assert.equal(left.length, 1);
  assert.equal(left[0]!.metadata!.annotations![Refs], 'a/some-job');
  assert.equal(await releasePrePullSecrets(io, { kind: 'CloneSet', name: 'other' }), 0);
});
