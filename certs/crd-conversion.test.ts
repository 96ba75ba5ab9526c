// The conversion webhook's caBundle on kruise's CRDs (spec/openkruise-v1.9.md §9.3), against an in-memory CRD API.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { generateCA } from './generate.js';
import { allCaBundles, conversionPatch, crdCaBundles, forbiddenAsAbsent, type Crd, type CrdApi } from './crd-conversion.js';
import { memoryCaBundle } from './ca-bundle.js';

const svc = { port: 9443, service: { namespace: 'kruise-system', name: 'kruise-webhook-service' } };
const sidecarSets = (conversion?: object): Crd => ({
  metadata: { name: 'sidecarsets.apps.kruise.io', resourceVersion: '7' },
  spec: { group: 'apps.kruise.io', names: { kind: 'SidecarSet' }, versions: [{ name: 'v1alpha1' }, { name: 'v1beta1' }], ...(conversion ? { conversion } : {}) },
});
const webhookConversion = { strategy: 'Webhook', webhook: { conversionReviewVersions: ['v1'], clientConfig: { service: { namespace: 'system', name: 'webhook-service', path: '/convert' } } } };

/** A CRD store applying JSON merge patches (RFC 7386) as the apiserver does; every patch is recorded. */
function memoryCrds(initial: Crd[]): CrdApi & { patches: { name: string; body: unknown }[]; crd(name: string): Crd | undefined } {
  const store = new Map(initial.map((c) => [c.metadata!.name!, structuredClone(c)]));
  const merge = (target: unknown, patch: unknown): unknown => {
    if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) return patch;
    const out: Record<string, unknown> = typeof target === 'object' && target !== null && !Array.isArray(target) ? { ...(target as object) } : {};
    for (const [k, v] of Object.entries(patch)) {
      if (v === null) delete out[k];
      else out[k] = merge(out[k], v);
    }
    return out;
  };
  const patches: { name: string; body: unknown }[] = [];
  return {
    patches,
    crd: (name) => store.get(name),
    get: async (name) => structuredClone(store.get(name)),
    mergePatch: async (name, body) => {
      patches.push({ name, body });
      store.set(name, merge(store.get(name), body) as Crd);
    },
  };
}

test('a Webhook CRD of ours gets the CA, the Service on 443 at /convert and review versions v1, v1beta1', async () => {
  const api = memoryCrds([sidecarSets(webhookConversion)]);
  const ca = generateCA(new Date());
  await crdCaBundles(api, svc).write([ca.cert]);
  const webhook = api.crd('sidecarsets.apps.kruise.io')!.spec!.conversion!.webhook!;
  assert.deepEqual(webhook.conversionReviewVersions, ['v1', 'v1beta1']);
  assert.deepEqual(webhook.clientConfig, {
    caBundle: Buffer.from(ca.cert.endsWith('\n') ? ca.cert : `${ca.cert}\n`).toString('base64'),
    service: { namespace: 'kruise-system', name: 'kruise-webhook-service', path: '/convert', port: 443 },
  });
  assert.deepEqual((api.patches[0]!.body as { metadata: unknown }).metadata, { resourceVersion: '7' }, 'a concurrent change makes the patch fail');
  assert.deepEqual((await crdCaBundles(api, svc).read()).map((l) => l.length), [1]);
  // Written again with the same CAs: nothing to change, no patch.
  await crdCaBundles(api, svc).write([ca.cert]);
  assert.equal(api.patches.length, 1);
});

test('with WEBHOOK_HOST the clientConfig is https://HOST:PORT/convert and the service goes', async () => {
  const api = memoryCrds([sidecarSets(webhookConversion)]);
  await crdCaBundles(api, { ...svc, host: '10.0.0.7' }).write([]);
  assert.deepEqual(api.crd('sidecarsets.apps.kruise.io')!.spec!.conversion!.webhook!.clientConfig, { caBundle: '', url: 'https://10.0.0.7:9443/convert' });
});

test('a CRD with conversion None, a missing CRD and a CRD whose first version is not ours are left alone', async () => {
  const none = memoryCrds([sidecarSets({ strategy: 'None' })]);
  await crdCaBundles(none, svc).write([]);
  assert.deepEqual(none.patches, []);
  assert.deepEqual(await crdCaBundles(none, svc).read(), [], 'contributes no caBundle to rotation');
  const missing = memoryCrds([]);
  await crdCaBundles(missing, svc).write([]);
  assert.deepEqual(missing.patches, []);
  const foreign = sidecarSets(webhookConversion);
  foreign.spec!.versions = [{ name: 'v9' }];
  assert.equal(conversionPatch(foreign, { ...svc, caBundle: 'Q0E=' }), undefined);
});

test('a failed patch is reported naming the CRD', async () => {
  const api: CrdApi = { get: async () => sidecarSets(webhookConversion), mergePatch: async () => { throw Object.assign(new Error('conflict'), { code: 409 }); } };
  await assert.rejects(crdCaBundles(api, svc).write([]), /failed to update CRD sidecarsets\.apps\.kruise\.io/);
});

test('a CRD the webhook may not read is left alone (an older chart\'s RBAC); other errors still fail the sync', async () => {
  const failing = (code: number): CrdApi => ({ get: async () => { throw Object.assign(new Error(`HTTP ${code}`), { code }); }, mergePatch: async () => assert.fail('no patch') });
  const forbidden: string[] = [];
  const target = crdCaBundles(forbiddenAsAbsent(failing(403), (name) => forbidden.push(name)), svc);
  assert.deepEqual(await target.read(), []);
  await target.write([]);
  assert.deepEqual(forbidden, ['sidecarsets.apps.kruise.io', 'sidecarsets.apps.kruise.io']);
  await assert.rejects(crdCaBundles(forbiddenAsAbsent(failing(500), () => {}), svc).read(), /HTTP 500/);
});

test('allCaBundles reads every target\'s webhooks and writes each', async () => {
  const ca = generateCA(new Date());
  const a = memoryCaBundle([ca.cert]);
  const api = memoryCrds([sidecarSets(webhookConversion)]);
  const both = allCaBundles([a, crdCaBundles(api, svc)]);
  assert.deepEqual((await both.read()).map((l) => l.length), [1, 0], 'the CRD does not trust the CA yet');
  await both.write([ca.cert]);
  assert.deepEqual((await both.read()).map((l) => l.length), [1, 1]);
});
