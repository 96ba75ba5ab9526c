// The certificate material as PEM strings, and its mapping to the Secret keys OpenKruise uses (spec §6), so a Secret
// written by upstream's webhook-controller is readable here and vice versa.

export interface CertBundle {
  caKey: string;
  caCert: string;
  /** Serving key and certificate (PKCS#1 RSA key, as upstream). */
  key: string;
  cert: string;
}

export const SECRET_KEYS = {
  caKey: 'ca-key.pem',
  caCert: 'ca-cert.pem',
  key: ['key.pem', 'tls.key'],
  cert: ['cert.pem', 'tls.crt'],
} as const;

const b64 = (s: string) => Buffer.from(s).toString('base64');
const unb64 = (s: string | undefined) => (s ? Buffer.from(s, 'base64').toString('utf8') : '');

/** Secret `.data` (base64 values) with the server pair duplicated under both names. */
export function bundleToSecretData(b: CertBundle): Record<string, string> {
  return {
    [SECRET_KEYS.caKey]: b64(b.caKey),
    [SECRET_KEYS.caCert]: b64(b.caCert),
    'key.pem': b64(b.key),
    'tls.key': b64(b.key),
    'cert.pem': b64(b.cert),
    'tls.crt': b64(b.cert),
  };
}

/** Partial bundle from Secret `.data`; missing entries come back as ''. */
export function bundleFromSecretData(data: Record<string, string> | undefined): CertBundle {
  const d = data ?? {};
  return {
    caKey: unb64(d[SECRET_KEYS.caKey]),
    caCert: unb64(d[SECRET_KEYS.caCert]),
    key: unb64(d['tls.key'] ?? d['key.pem']),
    cert: unb64(d['tls.crt'] ?? d['cert.pem']),
  };
}

export const isComplete = (b: CertBundle) => Boolean(b.caKey && b.caCert && b.key && b.cert);
