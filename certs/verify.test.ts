import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateCA, generateServingCert } from './generate.js';
import { caReusable, regenerationReason } from './verify.js';
import type { CertBundle } from './bundle.js';

const DAY = 24 * 3600 * 1000;
const issued = new Date('2026-03-01T00:00:00Z');
const host = 'svc.ns.svc';
const ca = generateCA(issued);
const serving = generateServingCert(ca, host, issued);
const good: CertBundle = { caKey: ca.key, caCert: ca.cert, key: serving.key, cert: serving.cert };
const otherCa = generateCA(issued);
const at = (days: number) => new Date(issued.getTime() + days * DAY);

const cases: { name: string; bundle: CertBundle; host?: string; now: Date; renewBeforeDays: number; want: RegExp | null }[] = [
  { name: 'a fresh bundle for the right host is kept', bundle: good, now: at(1), renewBeforeDays: 180, want: null },
  { name: 'a missing serving key forces regeneration', bundle: { ...good, key: '' }, now: at(1), renewBeforeDays: 180, want: /missing/ },
  { name: 'a missing CA key forces regeneration', bundle: { ...good, caKey: '' }, now: at(1), renewBeforeDays: 180, want: /missing/ },
  { name: 'garbage PEM forces regeneration', bundle: { ...good, cert: 'garbage' }, now: at(1), renewBeforeDays: 180, want: /parse/ },
  { name: 'a serving cert from another CA forces regeneration', bundle: { ...good, caCert: otherCa.cert, caKey: otherCa.key }, now: at(1), renewBeforeDays: 180, want: /not signed/ },
  { name: 'a different host forces regeneration', bundle: good, host: 'other.ns.svc', now: at(1), renewBeforeDays: 180, want: /not valid for other.ns.svc/ },
  { name: 'expiry inside the renew-before window forces regeneration', bundle: good, now: at(365 - 179), renewBeforeDays: 180, want: /renew-before/ },
  { name: 'expiry just outside the renew-before window is kept', bundle: good, now: at(365 - 181), renewBeforeDays: 180, want: null },
];
for (const tc of cases) {
  test(tc.name, () => {
    const got = regenerationReason(tc.bundle, tc.host ?? host, tc.now, tc.renewBeforeDays * DAY);
    if (tc.want === null) assert.equal(got, null);
    else assert.match(got ?? '', tc.want);
  });
}

test('the CA is reused only while it is valid one year from now', () => {
  assert.equal(caReusable(good, at(3650 - 366)), true);
  assert.equal(caReusable(good, at(3650 - 364)), false);
  assert.equal(caReusable({ ...good, caKey: '' }, at(1)), false);
});
