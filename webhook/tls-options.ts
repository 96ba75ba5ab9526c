// The admission server's TLS settings (review L2): TLS 1.2 and 1.3 only, and only forward-secret AEAD suites, so a
// recorded session stays unreadable after a key leak and no CBC or SHA-1 MAC suite is ever negotiated. Node's
// defaults also accept static-RSA key exchange (AES128-GCM-SHA256) and CBC-SHA1 (AES128-SHA, ECDHE-RSA-AES128-SHA).
// The port's one client, the apiserver (Go crypto/tls), supports all of them; probes and metrics are on the health port.
//
// Used for the first secure context (buildApp) and for every rotation (attachCertificateSource): setSecureContext
// builds a whole new context, and options it is not given fall back to Node's defaults.
import type { SecureContextOptions } from 'node:tls';

const TLS13_SUITES = ['TLS_AES_256_GCM_SHA384', 'TLS_CHACHA20_POLY1305_SHA256', 'TLS_AES_128_GCM_SHA256'];

/** ECDHE key exchange with GCM or ChaCha20-Poly1305, in Mozilla's "intermediate" order. */
const TLS12_SUITES = [
  'ECDHE-ECDSA-AES128-GCM-SHA256',
  'ECDHE-RSA-AES128-GCM-SHA256',
  'ECDHE-ECDSA-AES256-GCM-SHA384',
  'ECDHE-RSA-AES256-GCM-SHA384',
  'ECDHE-ECDSA-CHACHA20-POLY1305',
  'ECDHE-RSA-CHACHA20-POLY1305',
];

export const TLS_OPTIONS = Object.freeze({
  minVersion: 'TLSv1.2',
  // Node routes the TLS_* names to the TLS 1.3 suite list and the rest to the TLS 1.2 cipher list.
  ciphers: [...TLS13_SUITES, ...TLS12_SUITES].join(':'),
  honorCipherOrder: true,
} as const) satisfies SecureContextOptions;
