import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { V1ObjectReference } from '@kubernetes/client-node';
import type { ImageTagSpec, NodeImage, NodeImageStatus } from '../../shared/api/node-image.js';
import { CriError } from '../cri/errors.js';
import type { PullImageRequest } from '../cri/runtime.js';
import type { PullEvent } from './events.js';
import { ImagePuller, type PullerDeps } from './puller.js';
import type { SecretLike } from './secrets.js';
import { ScriptedRuntime, VirtualClock, type PullBehaviour } from './testing.js';

const job: V1ObjectReference = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ImagePullJob', namespace: 'default', name: 'warm', uid: 'u-1' };
const notFound = new CriError('not-found', 'ImageService/PullImage', 'failed to resolve reference "docker.io/library/nginx:1.25": not found');

function nodeImage(tags: Array<Partial<ImageTagSpec> & { tag: string }>, extra: Partial<NodeImage> = {}, name = 'nginx'): NodeImage {
  return {
    apiVersion: 'apps.kruise.io/v1alpha1', kind: 'NodeImage', metadata: { name: 'node-a', uid: 'ni-1', resourceVersion: '7' },
    spec: { images: { [name]: { tags: tags.map((t) => ({ pullPolicy: { ttlSecondsAfterFinished: 300 }, ownerReferences: [job], ...t })) } } },
    ...extra,
  };
}

function setup(script: PullBehaviour[] = ['ok'], opts: Partial<PullerDeps> = {}) {
  const clock = new VirtualClock();
  const runtime = new ScriptedRuntime(clock);
  runtime.script = script;
  const events: PullEvent[] = [];
  const writes: NodeImageStatus[] = [];
  const puller = new ImagePuller({
    images: runtime, clock, random: () => 0, getPullSecrets: async () => [],
    emitEvent: (e) => events.push(e), writeStatus: async (_ni, s) => { writes.push(structuredClone(s)); }, ...opts,
  });
  /** Syncs, lets every pull finish, then syncs again with the written status (as the informer would deliver it). */
  const syncToEnd = async (ni: NodeImage) => {
    await puller.sync(ni);
    await puller.settled();
    return puller.sync({ ...ni, status: writes.at(-1) });
  };
  return { clock, runtime, events, writes, puller, syncToEnd };
}

const tagStatus = (s: NodeImageStatus, tag: string, image = 'nginx') => s.imageStatuses?.[image]?.tags.find((t) => t.tag === tag);
const seconds = (from?: string, to?: string) => (Date.parse(to!) - Date.parse(from!)) / 1000;

describe('ImagePuller.sync', () => {
  test('a successful pull reports Succeeded with progress 100, the image ID and a PullImageSucceed event', async () => {
    const { runtime, events, writes, syncToEnd } = setup();
    const first = await setup(['hang']).puller.sync(nodeImage([{ tag: '1.25' }]));
    assert.deepEqual(first.status, { desired: 1, succeeded: 0, failed: 0, pulling: 1, waiting: 0, imageStatuses: { nginx: { tags: [{ tag: '1.25', phase: 'Pulling', version: 0, startTime: '2026-03-01T10:00:00Z' }] } } });
    const { status, requeueAfterMs } = await syncToEnd(nodeImage([{ tag: '1.25' }]));
    const t = tagStatus(status, '1.25')!;
    assert.equal(t.phase, 'Succeeded');
    assert.equal(t.progress, 100);
    assert.match(t.imageID!, /^nginx@sha256:[0-9]{64}$/);
    assert.ok(t.startTime && t.completionTime);
    assert.deepEqual([status.desired, status.succeeded, status.failed, status.pulling, status.waiting], [1, 1, 0, 0, 0]);
    assert.deepEqual(events.map((e) => [e.type, e.reason, e.message, e.involvedObject.kind]), [['Normal', 'PullImageSucceed', 'Image nginx:1.25, ecalpsedTime 0s', 'NodeImage']]);
    assert.equal((runtime.callsOf('pullImage')[0][0] as PullImageRequest).image, 'nginx:1.25');
    assert.ok(requeueAfterMs >= 20 * 60_000, 'an all-finished NodeImage is requeued slowly');
    assert.equal(writes.length, 2, 'Pulling then Succeeded; the final sync saw an unchanged status');
  });

  test('IfNotPresent with the image already on the node succeeds without calling PullImage', async () => {
    const { runtime, syncToEnd } = setup();
    runtime.addImage('docker.io/library/nginx:1.25');
    const { status } = await syncToEnd(nodeImage([{ tag: '1.25', imagePullPolicy: 'IfNotPresent' }]));
    assert.equal(tagStatus(status, '1.25')?.phase, 'Succeeded');
    assert.equal(runtime.callsOf('pullImage').length, 0);
  });

  test('an image already present is pulled again when imagePullPolicy is Always or empty', async () => {
    const { runtime, syncToEnd } = setup();
    runtime.addImage('docker.io/library/nginx:1.25');
    await syncToEnd(nodeImage([{ tag: '1.25' }]));
    assert.equal(runtime.callsOf('pullImage').length, 1);
  });

  test('a failed attempt is retried after 1 s and the retry succeeds', async () => {
    const { runtime, syncToEnd } = setup([notFound, 'ok']);
    const { status } = await syncToEnd(nodeImage([{ tag: '1.25' }]));
    const t = tagStatus(status, '1.25')!;
    assert.equal(t.phase, 'Succeeded');
    assert.equal(runtime.callsOf('pullImage').length, 2);
    assert.equal(seconds(t.startTime, t.completionTime), 1);
  });

  test('failing every attempt ends Failed after backoffLimit+1 attempts, sleeping 1+2+4 s, with events on owner and NodeImage', async () => {
    const { runtime, events, syncToEnd } = setup([notFound]);
    const { status, requeueAfterMs } = await syncToEnd(nodeImage([{ tag: '1.25', pullPolicy: { backoffLimit: 2, ttlSecondsAfterFinished: 300 } }]));
    const t = tagStatus(status, '1.25')!;
    assert.equal(t.phase, 'Failed');
    assert.equal(runtime.callsOf('pullImage').length, 3);
    assert.equal(seconds(t.startTime, t.completionTime), 7, 'upstream also sleeps after the last failed attempt');
    const message = `Failed to pull image reference "nginx:1.25": ${notFound.message}`;
    assert.equal(t.message, message);
    assert.deepEqual(status.failed, 1);
    assert.deepEqual(events.map((e) => [e.type, e.reason, e.involvedObject.kind, e.message]), [
      ['Warning', 'PullImageFailed', 'ImagePullJob', `Image nginx:1.25 ${message}`],
      ['Warning', 'PullImageFailed', 'NodeImage', `Image nginx:1.25 ${message}`],
    ]);
    assert.ok(requeueAfterMs >= 20 * 60_000, 'Failed counts as finished');
  });

  test('the default backoffLimit of 3 makes 4 attempts', async () => {
    const { runtime, syncToEnd } = setup([notFound]);
    await syncToEnd(nodeImage([{ tag: '1.25' }]));
    assert.equal(runtime.callsOf('pullImage').length, 4);
  });

  test('an attempt that never answers times out after timeoutSeconds and is retried', async () => {
    const { runtime, syncToEnd } = setup(['hang']);
    const { status } = await syncToEnd(nodeImage([{ tag: '1.25', pullPolicy: { timeoutSeconds: 5, backoffLimit: 1, ttlSecondsAfterFinished: 300 } }]));
    const t = tagStatus(status, '1.25')!;
    assert.equal(t.phase, 'Failed');
    assert.equal(t.message, 'pulling image nginx:1.25 is canceled');
    assert.equal(runtime.callsOf('pullImage').length, 2);
    assert.equal(seconds(t.startTime, t.completionTime), 5 + 1 + 5 + 2);
  });

  test('activeDeadlineSeconds clips the attempt and fails the tag with the deadline message', async () => {
    const { runtime, syncToEnd } = setup(['hang']);
    const { status } = await syncToEnd(nodeImage([{ tag: '1.25', pullPolicy: { activeDeadlineSeconds: 10, ttlSecondsAfterFinished: 300 } }]));
    const t = tagStatus(status, '1.25')!;
    assert.equal(t.phase, 'Failed');
    assert.equal(t.message, 'pulling exceeds the activeDeadlineSeconds');
    assert.equal(runtime.callsOf('pullImage').length, 1);
    assert.equal(seconds(t.startTime, t.completionTime), 11);
  });

  test('a tag removed from the spec mid-pull stops, is no longer reported and emits nothing', async () => {
    const { events, puller } = setup(['hang']);
    await puller.sync(nodeImage([{ tag: '1.25' }, { tag: '1.26' }]));
    const { status } = await puller.sync(nodeImage([{ tag: '1.26' }]));
    assert.deepEqual(status.imageStatuses?.nginx.tags.map((t) => t.tag), ['1.26']);
    assert.equal(status.desired, 1);
    assert.deepEqual(events, []);
    const gone = await puller.sync({ ...nodeImage([]), spec: {} });
    assert.deepEqual(gone.status, { desired: 0, succeeded: 0, failed: 0, pulling: 0, waiting: 0 });
    puller.stop();
  });

  test('no more than maxConcurrentPulls pulls run at once, and queued ones report Waiting', async () => {
    const { runtime, puller, writes, syncToEnd } = setup([{ takesMs: 5_000 }], { maxConcurrentPulls: 2 });
    const tags = ['a', 'b', 'c', 'd', 'e'].map((tag) => ({ tag }));
    const first = await puller.sync(nodeImage(tags));
    assert.equal(first.status.waiting + first.status.pulling, 5);
    const { status } = await syncToEnd(nodeImage(tags));
    assert.equal(status.succeeded, 5);
    assert.equal(runtime.peakInFlight, 2);
    assert.equal(puller.peakConcurrency, 2);
    assert.ok(writes.length >= 2);
  });

  test('a finished tag already in the written status is adopted after a daemon restart, not pulled again', async () => {
    const { runtime, syncToEnd } = setup();
    const written: NodeImageStatus = { desired: 1, succeeded: 1, failed: 0, pulling: 0, waiting: 0, imageStatuses: { nginx: { tags: [
      { tag: '1.25', phase: 'Succeeded', progress: 100, version: 2, startTime: '2026-01-01T00:00:00Z', completionTime: '2026-01-01T00:00:03Z', imageID: 'nginx@sha256:x' }] } } };
    const { status } = await syncToEnd(nodeImage([{ tag: '1.25', version: 2 }], { status: written }));
    assert.deepEqual(status, written);
    assert.equal(runtime.callsOf('pullImage').length, 0);
  });

  test('bumping a tag version pulls it again', async () => {
    const { runtime, writes, syncToEnd } = setup();
    await syncToEnd(nodeImage([{ tag: '1.25', version: 0 }]));
    const { status } = await syncToEnd(nodeImage([{ tag: '1.25', version: 1 }], { status: writes.at(-1) }));
    assert.equal(runtime.callsOf('pullImage').length, 2);
    assert.equal(tagStatus(status, '1.25')?.version, 1);
  });

  test('a pull is requeued quickly while unfinished', async () => {
    const { puller } = setup(['hang']);
    const { requeueAfterMs } = await puller.sync(nodeImage([{ tag: '1.25' }]));
    assert.equal(requeueAfterMs, 3_000);
    puller.stop();
  });

  test('credentials matching the image registry are passed to PullImage; others are not', async () => {
    const cfg = (auths: object): SecretLike => ({ type: 'kubernetes.io/dockerconfigjson', data: { '.dockerconfigjson': Buffer.from(JSON.stringify({ auths })).toString('base64') } });
    const secrets = [cfg({ 'reg.example.com:5000': { username: 'u', password: 'right' } }), cfg({ 'other.example.com': { username: 'x', password: 'y' } })];
    const asked: unknown[] = [];
    const { runtime, syncToEnd } = setup(['ok'], { getPullSecrets: async (refs) => { asked.push(refs); return secrets; } });
    const ni = nodeImage([{ tag: 'v1' }], {}, 'reg.example.com:5000/team/app');
    ni.spec!.images!['reg.example.com:5000/team/app'].pullSecrets = [{ namespace: 'kruise-daemon-config', name: 'regcred' }];
    await syncToEnd(ni);
    assert.deepEqual(asked, [[{ namespace: 'kruise-daemon-config', name: 'regcred' }]]);
    assert.deepEqual((runtime.callsOf('pullImage')[0][0] as PullImageRequest).auth, { username: 'u', password: 'right' });
  });

  test('when every matched credential fails the attempt fails with their aggregated errors, without anonymous fallback', async () => {
    const denied = new CriError('unauthenticated', 'ImageService/PullImage', '401 Unauthorized');
    const cfg = (key: string, pw: string): SecretLike => ({ type: 'kubernetes.io/dockerconfigjson', data: { '.dockerconfigjson': Buffer.from(JSON.stringify({ auths: { [key]: { username: 'u', password: pw } } })).toString('base64') } });
    const { runtime, syncToEnd } = setup([denied], { getPullSecrets: async () => [cfg('reg.io/team', 'pw-a'), cfg('reg.io', 'pw-b')] });
    const ni = nodeImage([{ tag: 'v1', pullPolicy: { backoffLimit: 0, ttlSecondsAfterFinished: 1 } }], {}, 'reg.io/team/app');
    ni.spec!.images!['reg.io/team/app'].pullSecrets = [{ name: 'a' }];
    const { status } = await syncToEnd(ni);
    assert.deepEqual(runtime.callsOf('pullImage').map(([r]) => (r as PullImageRequest).auth?.password), ['pw-a', 'pw-b']);
    const t = tagStatus(status, 'v1', 'reg.io/team/app')!;
    assert.equal(t.message, `[${denied.message}, ${denied.message}]`);
    assert.ok(!t.message!.includes('pw-'));
  });

  test('a failing status write rejects the sync so the caller retries', async () => {
    const { puller } = setup(['hang'], { writeStatus: async () => { throw new Error('conflict'); } });
    await assert.rejects(puller.sync(nodeImage([{ tag: '1.25' }])), /conflict/);
    puller.stop();
  });
});

describe('ImagePuller metrics hooks', () => {
  test('running pulls are counted up and down, and each final status is observed once with its duration', async () => {
    const running: number[] = [];
    const finished: Array<[string, number]> = [];
    let now = 0;
    const { syncToEnd } = setup([{ takesMs: 2_000 }, notFound], {
      maxConcurrentPulls: 1,
      observer: { running: (d) => running.push((now += d)), finished: (r, ms) => finished.push([r, ms]) },
    });
    await syncToEnd(nodeImage([{ tag: 'a' }, { tag: 'b', pullPolicy: { backoffLimit: 0, ttlSecondsAfterFinished: 1 } }]));
    assert.deepEqual(running, [1, 0, 1, 0], 'one at a time under the cap');
    assert.deepEqual(finished, [['succeeded', 2_000], ['failed', 1_000]]);
  });
});

describe('ImagePuller pull secrets', () => {
  test('a pull secret lookup that fails is skipped and the image is pulled anonymously', async () => {
    const warnings: string[] = [];
    const { runtime, syncToEnd } = setup(['ok'], {
      getPullSecrets: async () => { throw new Error('secrets "regcred" is forbidden'); },
      log: { info: () => undefined, warn: (_o, m) => warnings.push(m) },
    });
    const ni = nodeImage([{ tag: '1.25' }]);
    ni.spec!.images!.nginx.pullSecrets = [{ namespace: 'kruise-daemon-config', name: 'regcred' }];
    const { status } = await syncToEnd(ni);
    assert.equal(tagStatus(status, '1.25')?.phase, 'Succeeded');
    assert.equal((runtime.callsOf('pullImage')[0][0] as PullImageRequest).auth, undefined);
    assert.deepEqual(warnings, ['cannot fetch pull secrets; pulling anonymously']);
  });
});

describe('ImagePuller deadline backstop', () => {
  test('a sync that finds a pull past its activeDeadlineSeconds fails it at once with events', async () => {
    const { clock, events, puller } = setup(['hang']);
    const ni = nodeImage([{ tag: '1.25', pullPolicy: { activeDeadlineSeconds: 30, ttlSecondsAfterFinished: 300 } }]);
    await puller.sync(ni);
    clock.now += 31_000;
    const { status } = await puller.sync(ni);
    const t = tagStatus(status, '1.25')!;
    assert.deepEqual([t.phase, t.message, status.failed], ['Failed', 'pulling exceeds the activeDeadlineSeconds', 1]);
    assert.deepEqual(events.map((e) => [e.reason, e.involvedObject.kind]), [['PullImageFailed', 'ImagePullJob'], ['PullImageFailed', 'NodeImage']]);
    await puller.settled();
    const again = await puller.sync({ ...ni, status });
    assert.equal(tagStatus(again.status, '1.25')?.message, 'pulling exceeds the activeDeadlineSeconds');
    assert.equal(events.length, 2, 'the stopped worker publishes nothing more');
  });
});
