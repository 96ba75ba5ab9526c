import { test } from 'node:test';
import assert from 'node:assert/strict';
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { CA_COMMON_NAME, generateCA, generateServingCert } from './generate.js';

const now = new Date('2026-03-01T00:00:00Z');
const ca = generateCA(now);
const dns = generateServingCert(ca, 'kruise-webhook-service.kruise-system.svc', now);
const ip = generateServingCert(ca, '10.0.0.7', new Date('2026-06-01T00:00:00Z'));
const ONE_YEAR_MS = 365 * 24 * 3600 * 1000;

test('the CA is self-signed with CN webhook-cert-ca and is a CA', () => {
  const c = new X509Certificate(ca.cert);
  assert.equal(c.subject, `CN=${CA_COMMON_NAME}`);
  assert.equal(c.issuer, `CN=${CA_COMMON_NAME}`);
  assert.equal(c.ca, true);
  assert.ok(c.verify(c.publicKey));
});

test('keys are RSA-2048 in PKCS#1 PEM', () => {
  for (const k of [ca.key, dns.key]) {
    assert.match(k, /^-----BEGIN RSA PRIVATE KEY-----/);
    const key = createPrivateKey(k);
    assert.equal(key.asymmetricKeyType, 'rsa');
    assert.equal(key.asymmetricKeyDetails?.modulusLength, 2048);
  }
});

test('the serving cert names the DNS host in CN and SANs, plus localhost, and is signed by the CA', () => {
  const c = new X509Certificate(dns.cert);
  assert.equal(c.subject, 'CN=kruise-webhook-service.kruise-system.svc');
  assert.equal(c.subjectAltName, 'DNS:localhost, DNS:kruise-webhook-service.kruise-system.svc');
  assert.equal(c.ca, false);
  assert.ok(c.verify(new X509Certificate(ca.cert).publicKey));
  assert.deepEqual(c.keyUsage, ['1.3.6.1.5.5.7.3.1']);
});

test('an IPv4 host becomes an IP SAN', () => {
  const c = new X509Certificate(ip.cert);
  assert.equal(c.subjectAltName, 'DNS:localhost, IP Address:10.0.0.7');
  assert.equal(c.checkIP('10.0.0.7'), '10.0.0.7');
});

test('validity: NotBefore is the CA NotBefore and NotAfter is issue time + 1 year (the CA keeps 10 years)', () => {
  const c = new X509Certificate(ip.cert);
  assert.equal(new Date(c.validFrom).getTime(), new Date(new X509Certificate(ca.cert).validFrom).getTime());
  assert.equal(new Date(c.validTo).getTime(), new Date('2026-06-01T00:00:00Z').getTime() + ONE_YEAR_MS);
  assert.equal(new Date(new X509Certificate(ca.cert).validTo).getTime(), now.getTime() + 10 * ONE_YEAR_MS);
});

test('serial numbers differ between certificates', () => {
  assert.notEqual(new X509Certificate(dns.cert).serialNumber, new X509Certificate(ip.cert).serialNumber);
});
