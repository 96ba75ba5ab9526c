// Self-signed CA and serving certificate, as OpenKruise's webhook-controller makes them (spec §6): RSA-2048, CA CN
// `webhook-cert-ca`, server CN = DNS name, SANs localhost + DNS name (IP SAN for an IPv4 host), ServerAuth,
// NotBefore = CA NotBefore, random serial, PKCS#1 PEM keys. The CA lives 10 years as upstream; the serving
// certificate lives 1 year (upstream: 10), so a leaked serving key stops being useful within a year.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { isIPv4 } from 'node:net';
import forge from 'node-forge';

const { pki } = forge;
export const CA_COMMON_NAME = 'webhook-cert-ca';
const TEN_YEARS_MS = 10 * 365 * 24 * 60 * 60 * 1000;
export const LEAF_VALIDITY_MS = 365 * 24 * 60 * 60 * 1000;

export interface KeyPairPem {
  key: string;
  cert: string;
}

// node-forge's pure-JS RSA keygen takes seconds per 2048-bit key; Node's native generator is ~100x faster and the
// key is then handed to forge for certificate building.
function rsaKey(): forge.pki.rsa.PrivateKey {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs1', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
  return pki.privateKeyFromPem(privateKey) as forge.pki.rsa.PrivateKey;
}

function publicFrom(key: forge.pki.rsa.PrivateKey): forge.pki.rsa.PublicKey {
  return pki.setRsaPublicKey(key.n, key.e);
}

// A positive serial: clear the top bit so DER does not read it as negative.
function serial(): string {
  const b = randomBytes(16);
  b[0]! &= 0x7f;
  return b.toString('hex');
}

export function generateCA(now: Date): KeyPairPem {
  const key = rsaKey();
  const cert = pki.createCertificate();
  cert.publicKey = publicFrom(key);
  cert.serialNumber = serial();
  cert.validity.notBefore = now;
  cert.validity.notAfter = new Date(now.getTime() + TEN_YEARS_MS);
  const subject = [{ name: 'commonName', value: CA_COMMON_NAME }];
  cert.setSubject(subject);
  cert.setIssuer(subject);
  cert.setExtensions([
    { name: 'basicConstraints', cA: true, critical: true },
    { name: 'keyUsage', keyCertSign: true, digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  cert.sign(key, forge.md.sha256.create());
  return { key: pki.privateKeyToPem(key), cert: pki.certificateToPem(cert) };
}

/** Serving certificate for `host` (DNS name or IPv4 literal) signed by `ca`, valid until now + validityMs. */
export function generateServingCert(ca: KeyPairPem, host: string, now: Date, validityMs = LEAF_VALIDITY_MS): KeyPairPem {
  const caCert = pki.certificateFromPem(ca.cert);
  const caKey = pki.privateKeyFromPem(ca.key);
  const key = rsaKey();
  const cert = pki.createCertificate();
  cert.publicKey = publicFrom(key);
  cert.serialNumber = serial();
  cert.validity.notBefore = caCert.validity.notBefore;
  cert.validity.notAfter = new Date(now.getTime() + validityMs);
  cert.setSubject([{ name: 'commonName', value: host }]);
  cert.setIssuer(caCert.subject.attributes);
  const altNames = [{ type: 2, value: 'localhost' }, isIPv4(host) ? { type: 7, ip: host } : { type: 2, value: host }];
  cert.setExtensions([
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'extKeyUsage', serverAuth: true },
    { name: 'subjectAltName', altNames },
    // Every CA we make has the same subject (upstream's CN), so without the key id a client trusting an old and a
    // new CA during rotation may pick the wrong issuer by name and fail the signature check.
    { name: 'authorityKeyIdentifier', keyIdentifier: caCert.generateSubjectKeyIdentifier().getBytes() },
  ]);
  cert.sign(caKey, forge.md.sha256.create());
  return { key: pki.privateKeyToPem(key), cert: pki.certificateToPem(cert) };
}
