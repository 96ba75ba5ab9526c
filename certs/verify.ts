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

/** The CA in the bundle can be reused when it parses and is still valid `marginMs` (default one year) from now. */
export function caReusable(b: CertBundle, now: Date, marginMs = ONE_YEAR_MS): boolean {
  const ca = b.caKey ? parse(b.caCert) : undefined;
  return Boolean(ca && validAt(ca, new Date(now.getTime() + marginMs)));
}

/**
 * Why the bundle cannot serve `host` at all (a missing piece, a cert that does not parse or is not signed by the CA,
 * a host mismatch), or null. Expiry is regenerationReason's business.
 */
export function pairProblem(b: CertBundle, host: string): string | null {
  if (!isComplete(b)) return 'certificate material missing';
  const ca = parse(b.caCert);
  const cert = parse(b.cert);
  if (!ca || !cert) return 'certificate does not parse';
  if (!cert.verify(ca.publicKey)) return 'serving certificate not signed by the CA';
  const matches = isIPv4(host) ? cert.checkIP(host) !== undefined : cert.checkHost(host) !== undefined;
  if (!matches) return `serving certificate not valid for ${host}`;
  return null;
}

/**
 * Null when the bundle can keep serving `host` until now + renewBefore, else why it must be regenerated (pairProblem,
 * or expiry within the renew-before window).
 */
export function regenerationReason(b: CertBundle, host: string, now: Date, renewBeforeMs: number): string | null {
  const problem = pairProblem(b, host);
  if (problem) return problem;
  const at = new Date(now.getTime() + renewBeforeMs);
  if (!validAt(parse(b.cert)!, at) || !validAt(parse(b.caCert)!, at)) return `serving certificate expires within the renew-before window (${at.toISOString()})`;
  return null;
}

export function notAfter(certPem: string): Date | undefined {
  const c = parse(certPem);
  return c ? new Date(c.validTo) : undefined;
}

/** SHA-256 fingerprint of a PEM certificate, or undefined when it does not parse (CAs are compared by it). */
export function fingerprint(certPem: string): string | undefined {
  return parse(certPem)?.fingerprint256;
}

/** Whether the PEM certificate parses and is valid at `at`. */
export function usableAt(certPem: string, at: Date): boolean {
  const c = parse(certPem);
  return Boolean(c && validAt(c, at));
}

type Gen = { ca: (now: Date) => { key: string; cert: string }; serving: (ca: { key: string; cert: string }, host: string, now: Date, validityMs?: number) => { key: string; cert: string } };

/**
 * CA and serving cert for `host`. The leaf lives a year, or twice renewBefore if that is longer (else it would be due
 * for renewal the moment it is issued); the bundle's CA is reused while it outlives the new leaf.
 */
export function nextBundle(current: CertBundle, host: string, now: Date, gen: Gen, renewBeforeMs = 0): CertBundle {
  const leafMs = Math.max(ONE_YEAR_MS, 2 * renewBeforeMs);
  const ca = caReusable(current, now, leafMs) ? { key: current.caKey, cert: current.caCert } : gen.ca(now);
  const serving = gen.serving(ca, host, now, leafMs);
  return { caKey: ca.key, caCert: ca.cert, key: serving.key, cert: serving.cert };
}
