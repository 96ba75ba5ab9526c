import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateCA, generateServingCert } from './generate.js';
import { decide, type RotationInput } from './rotation.js';
import type { CertState } from './state.js';
import { fingerprint } from './verify.js';

const host = 'kruise-webhook-service.kruise-system.svc';
const GRACE = 120_000;
const now = new Date('2026-06-01T00:00:00Z');
const gen = { ca: generateCA, serving: generateServingCert };
const pairFrom = (at: Date) => {
  const ca = generateCA(at);
  const leaf = generateServingCert(ca, host, at);
  return { caKey: ca.key, caCert: ca.cert, key: leaf.key, cert: leaf.cert };
};
const p1 = pairFrom(now);
const p2 = pairFrom(now);
const later = (ms: number) => new Date(now.getTime() + ms);
const input = (state: CertState | undefined, published: string[][], at = now): RotationInput =>
  ({ state, published, now: at, host, renewBeforeMs: 180 * 24 * 3600 * 1000, graceMs: GRACE });
const fps = (cas: string[]) => cas.map(fingerprint);

test('first start with no webhook configuration installed: the pair is served at once', () => {
  const d = decide(input(undefined, []), gen);
  assert.ok(d.state.current);
  assert.equal(d.serve?.cert, d.state.current!.cert);
  assert.deepEqual(fps(d.publish), fps([d.state.current!.caCert]));
});

test('a steady state changes nothing and serves the current pair', () => {
  const d = decide(input({ current: p1, retired: [] }, [[p1.caCert], [p1.caCert]]), gen);
  assert.deepEqual(d.reasons, []);
  assert.equal(d.serve?.cert, p1.cert);
  assert.deepEqual(fps(d.publish), fps([p1.caCert]));
});

test('the next pair is not served at serveFrom while one webhook still lacks its CA, and serveFrom moves a grace period on', () => {
  const state = { current: p1, next: { ...p2, serveFrom: now }, retired: [] };
  const d = decide(input(state, [[p1.caCert, p2.caCert], [p1.caCert]]), gen);
  assert.equal(d.serve?.cert, p1.cert);
  assert.equal(d.state.next?.serveFrom.getTime(), later(GRACE).getTime());
  assert.match(d.reasons.join(), /not yet in every caBundle/);
  assert.deepEqual(fps(d.publish), fps([p1.caCert, p2.caCert]));
});

test('the next pair is served from serveFrom once every webhook holds its CA; both CAs stay published', () => {
  const state = { current: p1, next: { ...p2, serveFrom: now }, retired: [] };
  const d = decide(input(state, [[p1.caCert, p2.caCert], [p1.caCert, p2.caCert]]), gen);
  assert.deepEqual(d.reasons, []);
  assert.equal(d.serve?.cert, p2.cert);
  assert.deepEqual(fps(d.publish), fps([p1.caCert, p2.caCert]));
});

test('promotion a grace period after serveFrom drops the previous CA; not while the new CA is missing somewhere', () => {
  const state = { current: p1, next: { ...p2, serveFrom: now }, retired: [] };
  const promoted = decide(input(state, [[p1.caCert, p2.caCert]], later(GRACE)), gen);
  assert.equal(promoted.state.current?.cert, p2.cert);
  assert.equal(promoted.state.next, undefined);
  assert.deepEqual(fps(promoted.publish), fps([p2.caCert]));
  const held = decide(input(state, [[p1.caCert]], later(GRACE)), gen);
  assert.equal(held.state.current?.cert, p1.cert, 'nobody could have switched: the old CA stays');
  assert.equal(held.serve?.cert, p1.cert);
});

test('a host change keeps the old CA trusted as retired while a new pair waits for its serve-from time', () => {
  const d = decide({ ...input({ current: p1, retired: [] }, [[p1.caCert]]), host: 'other.ns.svc' }, gen);
  assert.equal(d.state.current, undefined);
  assert.ok(d.state.next);
  assert.deepEqual(fps(d.state.retired.map((r) => r.caCert)), fps([p1.caCert]));
  assert.equal(d.serve, undefined, 'nothing servable for the new host yet');
  assert.equal(d.publish.length, 2);
});

test('a retired CA leaves caBundle at its until time', () => {
  const state = { current: p2, retired: [{ caCert: p1.caCert, until: later(GRACE) }] };
  assert.equal(decide(input(state, [[p2.caCert, p1.caCert]], later(GRACE - 1)), gen).publish.length, 2);
  const d = decide(input(state, [[p2.caCert, p1.caCert]], later(GRACE)), gen);
  assert.deepEqual(fps(d.publish), fps([p2.caCert]));
  assert.deepEqual(d.state.retired, []);
});

test('the CAs published when the store is found empty are kept as retired for two grace periods', () => {
  const d = decide(input(undefined, [[p1.caCert], ['not a certificate']]), gen);
  assert.deepEqual(fps(d.state.retired.map((r) => r.caCert)), fps([p1.caCert]));
  assert.equal(d.state.retired[0]!.until.getTime(), later(2 * GRACE).getTime());
  assert.equal(d.state.next?.serveFrom.getTime(), later(GRACE).getTime());
  assert.equal(d.serve, undefined);
});
