// Real HTTPS on 127.0.0.1: the serving pair is swapped under continuous load; no request may fail, and connections
// opened after the swap must present the new certificate.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request, Agent } from 'node:https';
import { connect } from 'node:tls';
import type { AddressInfo } from 'node:net';
import { X509Certificate } from 'node:crypto';
import { generateCA, generateServingCert } from '../certs/generate.js';
import { silentLogger } from '../shared/log.js';
import { allowed } from './admission/response.js';
import { attachCertificateSource, type CertificateSource, type ServingCert } from './tls.js';
import { review, testApp } from './test-helpers.js';

function pair() {
  const now = new Date();
  const ca = generateCA(now);
  return { ca: ca.cert, ...generateServingCert(ca, 'localhost', now) };
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
    const req = request({ host: '127.0.0.1', port, servername: 'localhost', path: '/allow', method: 'POST', ca, agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

function peerFingerprint(port: number, ca: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = connect({ host: '127.0.0.1', port, servername: 'localhost', ca }, () => {
      const fp = s.getPeerX509Certificate()?.fingerprint256 ?? '';
      s.end();
      resolve(fp);
    });
    s.on('error', reject);
  });
}

test('rotating the serving certificate under load fails no request and new connections see the new cert', async () => {
  const first = pair();
  const second = pair();
  const trusted = [first.ca, second.ca];
  const { app, metrics } = testApp([{ path: '/allow', name: 'allow', handler: () => allowed() }], { tls: first });
  const source = manualSource(first);
  attachCertificateSource(app.server as any, source, { log: silentLogger(), metrics });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const port = (app.server.address() as AddressInfo).port;
  try {
    assert.equal(await peerFingerprint(port, trusted), new X509Certificate(first.cert).fingerprint256);

    const keepAlive = new Agent({ keepAlive: true, maxSockets: 4 });
    let ok = 0;
    const failures: unknown[] = [];
    let stop = false;
    // Half the workers reuse connections across the swap, half open a new connection per request.
    const worker = async (agent: Agent | false) => {
      while (!stop) {
        try {
          const status = await post(port, trusted, agent);
          if (status === 200) ok++;
          else failures.push(status);
        } catch (err) {
          failures.push(err);
        }
      }
    };
    const workers = [keepAlive, keepAlive, false, false].map((a) => worker(a as Agent | false));
    while (ok < 200) await new Promise((r) => setTimeout(r, 5));
    const beforeRotation = ok;
    source.rotate({ key: second.key, cert: second.cert, notAfter: new Date(new X509Certificate(second.cert).validTo) });
    while (ok < beforeRotation + 200) await new Promise((r) => setTimeout(r, 5));
    stop = true;
    await Promise.all(workers);
    keepAlive.destroy();

    assert.deepEqual(failures, []);
    assert.equal(await peerFingerprint(port, trusted), new X509Certificate(second.cert).fingerprint256);
    const gauge = await metrics.registry.getSingleMetricAsString('kruise_webhook_serving_cert_expiry_timestamp_seconds');
    assert.match(gauge, new RegExp(`${Math.floor(new Date(new X509Certificate(second.cert).validTo).getTime() / 1000)}`));
  } finally {
    await app.close();
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
