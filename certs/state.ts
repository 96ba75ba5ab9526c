// What the certificate store holds for a rotation that two or more replicas carry out together: the pair served now,
// the renewed pair waiting for its serve-from time, and CAs kept trusted for replicas that may still serve a leaf
// of theirs. Encoded as flat files/Secret keys; `current` keeps upstream's keys (spec §6), so a Secret written by
// OpenKruise's webhook-controller reads as a state with only `current`, and one of ours serves upstream's.
import { SECRET_KEYS, type CertBundle } from './bundle.js';

export interface NextPair extends CertBundle {
  /** No replica serves this pair before this time; its CA is in caBundle by then (see rotation.ts). */
  serveFrom: Date;
}

export interface RetiredCA {
  caCert: string;
  /** Dropped from caBundle at this time. */
  until: Date;
}

export interface CertState {
  current?: CertBundle;
  next?: NextPair;
  retired: RetiredCA[];
}

const NEXT_KEYS = { caKey: 'next-ca-key.pem', caCert: 'next-ca-cert.pem', key: 'next-tls.key', cert: 'next-tls.crt', serveFrom: 'next-serve-from' } as const;
const RETIRED_KEY = 'retired-cas.json';

const validDate = (s: string | undefined): Date | undefined => {
  const d = s ? new Date(s) : undefined;
  return d && !Number.isNaN(d.getTime()) ? d : undefined;
};

/** File name → text. The serving pair is written under both upstream names (key.pem/tls.key, cert.pem/tls.crt). */
export function encodeState(s: CertState): Record<string, string> {
  const out: Record<string, string> = {};
  if (s.current) {
    out[SECRET_KEYS.caKey] = s.current.caKey;
    out[SECRET_KEYS.caCert] = s.current.caCert;
    for (const k of SECRET_KEYS.key) out[k] = s.current.key;
    for (const k of SECRET_KEYS.cert) out[k] = s.current.cert;
  }
  if (s.next) {
    out[NEXT_KEYS.caKey] = s.next.caKey;
    out[NEXT_KEYS.caCert] = s.next.caCert;
    out[NEXT_KEYS.key] = s.next.key;
    out[NEXT_KEYS.cert] = s.next.cert;
    out[NEXT_KEYS.serveFrom] = s.next.serveFrom.toISOString();
  }
  if (s.retired.length) out[RETIRED_KEY] = JSON.stringify(s.retired.map((r) => ({ caCert: r.caCert, until: r.until.toISOString() })));
  return out;
}

function decodeRetired(text: string | undefined): RetiredCA[] {
  if (!text) return [];
  try {
    const list: unknown = JSON.parse(text);
    if (!Array.isArray(list)) return [];
    return list.flatMap((r: { caCert?: unknown; until?: unknown }) => {
      const until = typeof r?.until === 'string' ? validDate(r.until) : undefined;
      return typeof r?.caCert === 'string' && until ? [{ caCert: r.caCert, until }] : [];
    });
  } catch {
    return [];
  }
}

/**
 * The state in `files`; a part that is absent or unreadable is left out (rotation.ts then treats a broken `current`
 * as missing). Pieces are not checked here beyond presence.
 */
export function decodeState(files: Record<string, string>): CertState {
  const current = {
    caKey: files[SECRET_KEYS.caKey] ?? '',
    caCert: files[SECRET_KEYS.caCert] ?? '',
    key: files['tls.key'] || files['key.pem'] || '',
    cert: files['tls.crt'] || files['cert.pem'] || '',
  };
  const serveFrom = validDate(files[NEXT_KEYS.serveFrom]);
  const next = { caKey: files[NEXT_KEYS.caKey] ?? '', caCert: files[NEXT_KEYS.caCert] ?? '', key: files[NEXT_KEYS.key] ?? '', cert: files[NEXT_KEYS.cert] ?? '' };
  const anyOf = (b: CertBundle) => Boolean(b.caKey || b.caCert || b.key || b.cert);
  return {
    ...(anyOf(current) ? { current } : {}),
    ...(anyOf(next) && serveFrom ? { next: { ...next, serveFrom } } : {}),
    retired: decodeRetired(files[RETIRED_KEY]),
  };
}

export const isEmptyState = (s: CertState) => !s.current && !s.next && s.retired.length === 0;

/** Every file name a state may use, so a writer can remove the ones a smaller state no longer has. */
export const STATE_FILES: readonly string[] = [SECRET_KEYS.caKey, SECRET_KEYS.caCert, ...SECRET_KEYS.key, ...SECRET_KEYS.cert, ...Object.values(NEXT_KEYS), RETIRED_KEY];
