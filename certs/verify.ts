// When to reuse and when to regenerate (spec §6), using Node's X509Certificate for chain and hostname checks.
import { X509Certificate } from 'node:crypto';
import { isIPv4 } from 'node:net';
import { isComplete, type CertBundle } from './bundle.js';

const ONE_YEAR_MS = 365 * 24 * 60 * 60 * 1000;

function parse(pem: string): X509Certificate | undefined {
  try {
    return new X509Certificate(pem);
  } catch {
    return undefined;
  }
}

const validAt = (c: X509Certificate, at: Date) => new Date(c.validFrom) <= at && at <= new Date(c.validTo);

/** The CA in the bundle can be reused when it parses and is still valid one year from now. */
export function caReusable(b: CertBundle, now: Date): boolean {
  const ca = b.caKey ? parse(b.caCert) : undefined;
  return Boolean(ca && validAt(ca, new Date(now.getTime() + ONE_YEAR_MS)));
}

/**
 * Null when the bundle can keep serving `host` until now + renewBefore, else why it must be regenerated (a missing
 * piece, a cert not signed by the CA, a host mismatch, or expiry within the renew-before window).
 */
export function regenerationReason(b: CertBundle, host: string, now: Date, renewBeforeMs: number): string | null {
  if (!isComplete(b)) return 'certificate material missing';
  const ca = parse(b.caCert);
  const cert = parse(b.cert);
  if (!ca || !cert) return 'certificate does not parse';
  if (!cert.verify(ca.publicKey)) return 'serving certificate not signed by the CA';
  const matches = isIPv4(host) ? cert.checkIP(host) !== undefined : cert.checkHost(host) !== undefined;
  if (!matches) return `serving certificate not valid for ${host}`;
  const at = new Date(now.getTime() + renewBeforeMs);
  if (!validAt(cert, at) || !validAt(ca, at)) return `serving certificate expires within the renew-before window (${at.toISOString()})`;
  return null;
}

export function notAfter(certPem: string): Date | undefined {
  const c = parse(certPem);
  return c ? new Date(c.validTo) : undefined;
}

/** CA and serving cert for `host`, reusing the bundle's CA when it is good for another year. */
export function nextBundle(
  current: CertBundle,
  host: string,
  now: Date,
  gen: { ca: (now: Date) => { key: string; cert: string }; serving: (ca: { key: string; cert: string }, host: string, now: Date) => { key: string; cert: string } },
): CertBundle {
  const ca = caReusable(current, now) ? { key: current.caKey, cert: current.caCert } : gen.ca(now);
  const serving = gen.serving(ca, host, now);
  return { caKey: ca.key, caCert: ca.cert, key: serving.key, cert: serving.cert };
}
