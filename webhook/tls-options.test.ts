// Real TLS handshakes on 127.0.0.1 against buildApp (review L2): only TLS 1.2+ with forward-secret AEAD suites are
// accepted, before and after a certificate rotation (setSecureContext must keep the same options).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { connect, type ConnectionOptions } from 'node:tls';
import { generateCA, generateServingCert } from '../certs/generate.js';
import { silentLogger } from '../shared/log.js';
import { allowed } from './admission/response.js';
import { attachCertificateSource, type CertificateSource, type SecureContextTarget, type ServingCert } from './tls.js';
import { testApp } from './test-helpers.js';

type Handshake = { ok: true; protocol: string; cipher: string; fingerprint: string } | { ok: false; code: string };

function handshake(port: number, opts: ConnectionOptions): Promise<Handshake> {
  return new Promise((resolve) => {
    const s = connect({ host: '127.0.0.1', port, rejectUnauthorized: false, ...opts }, () => {
      resolve({ ok: true, protocol: s.getProtocol() ?? '', cipher: s.getCipher().name, fingerprint: s.getPeerX509Certificate()?.fingerprint256 ?? '' });
      s.destroy();
    });
    s.on('error', (err: NodeJS.ErrnoException) => resolve({ ok: false, code: err.code ?? err.message }));
  });
}

function pair(): ServingCert {
  const now = new Date();
  return generateServingCert(generateCA(now), 'localhost', now);
}

// Each refusal must come from the server, as an alert: a client that cannot even offer its setting would "fail" too.
const refused: { name: string; opts: ConnectionOptions; alert: RegExp }[] = [
  { name: 'CBC with SHA-1 and static RSA (AES128-SHA)', opts: { ciphers: 'AES128-SHA', maxVersion: 'TLSv1.2' }, alert: /ALERT_HANDSHAKE_FAILURE/ },
  { name: 'static RSA key exchange with GCM (AES128-GCM-SHA256)', opts: { ciphers: 'AES128-GCM-SHA256', maxVersion: 'TLSv1.2' }, alert: /ALERT_HANDSHAKE_FAILURE/ },
  { name: 'ECDHE with CBC and SHA-1 (ECDHE-RSA-AES128-SHA)', opts: { ciphers: 'ECDHE-RSA-AES128-SHA', maxVersion: 'TLSv1.2' }, alert: /ALERT_HANDSHAKE_FAILURE/ },
  { name: 'TLS 1.1', opts: { minVersion: 'TLSv1.1', maxVersion: 'TLSv1.1', ciphers: 'DEFAULT@SECLEVEL=0' }, alert: /ALERT_PROTOCOL_VERSION/ },
];

const accepted: { name: string; opts: ConnectionOptions; protocol: string; cipher: string }[] = [
  { name: 'ECDHE-RSA-AES128-GCM-SHA256 on TLS 1.2', opts: { ciphers: 'ECDHE-RSA-AES128-GCM-SHA256', maxVersion: 'TLSv1.2' }, protocol: 'TLSv1.2', cipher: 'ECDHE-RSA-AES128-GCM-SHA256' },
  { name: 'ECDHE-RSA-CHACHA20-POLY1305 on TLS 1.2', opts: { ciphers: 'ECDHE-RSA-CHACHA20-POLY1305', maxVersion: 'TLSv1.2' }, protocol: 'TLSv1.2', cipher: 'ECDHE-RSA-CHACHA20-POLY1305' },
  { name: 'TLS 1.3', opts: { minVersion: 'TLSv1.3' }, protocol: 'TLSv1.3', cipher: 'TLS_AES_256_GCM_SHA384' },
];

test('TLS: weak suites and old versions are refused, forward-secret AEAD and TLS 1.3 accepted, before and after a rotation', async (t) => {
  const first = pair();
  const second = pair();
  const { app, metrics } = testApp([{ path: '/allow', name: 'allow', handler: () => allowed() }], { tls: first });
  let rotate!: (c: ServingCert) => void;
  const source: CertificateSource = {
    current: () => first,
    start: async () => {},
    healthy: () => true,
    onChange: (cb) => { rotate = cb; },
  };
  attachCertificateSource(app.server as unknown as SecureContextTarget, source, { log: silentLogger(), metrics });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const port = (app.server.address() as AddressInfo).port;
  try {
    for (const phase of ['first certificate', 'after rotation']) {
      if (phase === 'after rotation') {
        rotate(second);
        const r = await handshake(port, {});
        assert.equal(r.ok && r.fingerprint, new X509Certificate(second.cert).fingerprint256, 'the rotation took effect');
      }
      for (const tc of refused) {
        await t.test(`${phase}: refuses ${tc.name}`, async () => {
          const r = await handshake(port, tc.opts);
          assert.equal(r.ok, false);
          assert.match(!r.ok ? r.code : '', tc.alert);
        });
      }
      for (const tc of accepted) {
        await t.test(`${phase}: accepts ${tc.name}`, async () => {
          const r = await handshake(port, tc.opts);
          assert.deepEqual(r.ok && [r.protocol, r.cipher], [tc.protocol, tc.cipher]);
        });
      }
    }
  } finally {
    await app.close();
  }
});
