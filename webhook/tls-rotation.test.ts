// Real HTTPS on 127.0.0.1. The rotation test runs two webhook replicas (the real selfSignedSource and
// attachCertificateSource) on one shared store and one caBundle, as two pods on one Secret do; the client trusts only
// the caBundle published at the instant of each request, as the apiserver does. A renewal forced through the injected
// clock (a CA near its end, so the CA rotates too) must fail no request on either replica and change both
// replicas' serving certificate.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request, Agent } from 'node:https';
import { connect } from 'node:tls';
import type { AddressInfo } from 'node:net';
import { X509Certificate } from 'node:crypto';
import { memoryCaBundle } from '../certs/ca-bundle.js';
import type { Clock } from '../certs/clock.js';
import { generateCA, generateServingCert } from '../certs/generate.js';
import { memoryStore } from '../certs/memory-store.js';
import { selfSignedSource } from '../certs/self-signed-source.js';
import { silentLogger } from '../shared/log.js';
import { allowed } from './admission/response.js';
import { attachCertificateSource, type CertificateSource, type ServingCert } from './tls.js';
import { review, testApp } from './test-helpers.js';

const HOST = 'kruise-webhook-service.kruise-system.svc';
const DAY = 24 * 3600 * 1000;
const YEAR = 365 * DAY;
const RESYNC = 60_000;
const GRACE = 2 * RESYNC;

function pair() {
  const now = new Date();
  const ca = generateCA(now);
  return { ca: ca.cert, ...generateServingCert(ca, HOST, now) };
}

function manualSource(first: ServingCert): CertificateSource & { rotate(c: ServingCert): void } {
  let cur = first;
  const ls: ((c: ServingCert) => void)[] = [];
  return {
    current: () => cur,
    start: async () => {},
    healthy: () => true,
    onChange: (cb) => void ls.push(cb),
    rotate: (c) => { cur = c; ls.forEach((l) => l(c)); },
  };
}

function post(port: number, ca: string[], agent: Agent | false): Promise<number> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify(review());
    const req = request({ host: '127.0.0.1', port, servername: HOST, path: '/allow', method: 'POST', ca, agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

function peerFingerprint(port: number, ca: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = connect({ host: '127.0.0.1', port, servername: HOST, ca }, () => {
      const fp = s.getPeerX509Certificate()?.fingerprint256 ?? '';
      s.end();
      resolve(fp);
    });
    s.on('error', reject);
  });
}

const fp = (pem: string) => new X509Certificate(pem).fingerprint256;
const tick = () => new Promise((r) => setTimeout(r, 5));

test('two replicas on one store rotate their CA under load: no request fails against the caBundle published at that instant, and both serve the new certificate', async () => {
  // The clock starts at the real time (the client checks validity against it) and the CA is always in the last
  // half year of its life, so the renewal the clock forces mints a new CA, not just a new leaf.
  let t = Date.now();
  const clock: Clock = { now: () => new Date(t), sleep: async () => {} };
  const generate = { ca: (now: Date) => generateCA(new Date(now.getTime() - 9.5 * YEAR)), serving: generateServingCert };
  const store = memoryStore();
  const caBundle = memoryCaBundle();
  const replica = () => selfSignedSource({ store, caBundle, host: HOST, renewBeforeMs: 180 * DAY, clock, log: silentLogger(), resyncMs: RESYNC, graceMs: GRACE, generate });
  const sources = [replica(), replica()];
  for (const s of sources) await s.syncOnce();
  const first = sources[0]!.current()!;
  const firstCA = caBundle.cas()[0]!;
  const apps = sources.map((s) => {
    const { app, metrics } = testApp([{ path: '/allow', name: 'allow', handler: () => allowed() }], { tls: s.current()! });
    attachCertificateSource(app.server as any, s, { log: silentLogger(), metrics });
    return app;
  });
  for (const app of apps) await app.listen({ host: '127.0.0.1', port: 0 });
  const ports = apps.map((app) => (app.server.address() as AddressInfo).port);
  const keepAlive = new Agent({ keepAlive: true, maxSockets: 4 });
  try {
    for (const port of ports) assert.equal(await peerFingerprint(port, caBundle.cas()), fp(first.cert));
    const ok = ports.map(() => 0);
    const failures: { replica: number; step: string; err: unknown }[] = [];
    let step = 'installed';
    let stop = false;
    // Per replica, one worker opens a connection per request and one reuses connections (an Agent pools them per
    // trusted CA set, as the apiserver rebuilds its client when caBundle changes).
    const worker = async (i: number, agent: Agent | false) => {
      while (!stop) {
        try {
          const status = await post(ports[i]!, caBundle.cas(), agent);
          if (status === 200) ok[i]!++;
          else failures.push({ replica: i, step, err: status });
        } catch (err) {
          failures.push({ replica: i, step, err: (err as Error).message });
        }
      }
    };
    const workers = ports.flatMap((_, i) => [worker(i, keepAlive), worker(i, false)]);
    /** Lets every replica answer `n` more requests; stops at the first failure (a replica failing all would never get there). */
    const serve = async (n: number) => {
      const base = [...ok];
      while (failures.length === 0 && ok.some((c, i) => c < base[i]! + n)) await tick();
    };
    const sync = async (i: number, name: string) => { step = name; await sources[i]!.syncOnce(); await serve(50); };

    await serve(50);
    t += 3 * DAY; // into the renew-before window of the CA
    await sync(0, 'replica 0 renews');
    assert.ok(store.get()!.state.next, 'a renewal is in progress');
    assert.equal(caBundle.cas().length, 2, 'both CAs published');
    await sync(1, 'replica 1 sees the renewal');
    t += GRACE;
    await sync(1, 'replica 1 switches');
    await sync(0, 'replica 0 switches');
    t += GRACE;
    await sync(0, 'replica 0 drops the old CA');
    await sync(1, 'replica 1 after the promotion');
    stop = true;
    await Promise.all(workers);

    assert.deepEqual(failures.slice(0, 5), []);
    assert.equal(caBundle.cas().length, 1, 'the old CA is gone');
    const renewed = store.get()!.state.current!;
    assert.notEqual(fp(renewed.caCert), fp(firstCA), 'the CA rotated');
    for (const port of ports) {
      const served = await peerFingerprint(port, caBundle.cas());
      assert.notEqual(served, fp(first.cert));
      assert.equal(served, fp(renewed.cert));
    }
  } finally {
    keepAlive.destroy();
    for (const app of apps) await app.close();
  }
});

test('a broken pair is rejected and the previous certificate keeps serving', async () => {
  const first = pair();
  const { app, metrics } = testApp([{ path: '/allow', name: 'allow', handler: () => allowed() }], { tls: first });
  const source = manualSource(first);
  attachCertificateSource(app.server as any, source, { log: silentLogger(), metrics });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const port = (app.server.address() as AddressInfo).port;
  try {
    source.rotate({ key: 'not a key', cert: 'not a cert' });
    assert.equal(await post(port, [first.ca], false), 200);
    assert.equal(await peerFingerprint(port, [first.ca]), new X509Certificate(first.cert).fingerprint256);
  } finally {
    await app.close();
  }
});
