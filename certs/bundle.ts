// The certificate material as PEM strings, and the Secret keys OpenKruise uses for it (spec §6), so a Secret written
// by upstream's webhook-controller is readable here and vice versa (state.ts encodes the rest of a rotation).

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

export const isComplete = (b: CertBundle) => Boolean(b.caKey && b.caCert && b.key && b.cert);
