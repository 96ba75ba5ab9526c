import { test } from 'node:test';
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import type { AdmissionregistrationV1Api } from '@kubernetes/client-node';
import { generateCA } from './generate.js';
import { desiredClientConfig, MUTATING_CONFIGURATION, readCaBundles, webhookCaBundles, withClientConfigs } from './webhook-config.js';

const target = { caBundle: 'Q0E=', port: 9876, service: { namespace: 'kruise-system', name: 'kruise-webhook-service' } };

const cases: { name: string; input: any; host?: string; want: any }[] = [
  {
    name: 'service mode sets caBundle and the service, keeping path and port',
    input: { service: { namespace: 'x', name: 'y', path: '/mutate-pod', port: 443 } },
    want: { caBundle: 'Q0E=', service: { namespace: 'kruise-system', name: 'kruise-webhook-service', path: '/mutate-pod', port: 443 } },
  },
  {
    name: 'host mode replaces the service with https://HOST:PORT<path>',
    input: { service: { namespace: 'x', name: 'y', path: '/validate-apps-kruise-io-v1alpha1-sidecarset' } },
    host: '10.0.0.7',
    want: { caBundle: 'Q0E=', url: 'https://10.0.0.7:9876/validate-apps-kruise-io-v1alpha1-sidecarset' },
  },
  {
    name: 'host mode takes the path from an existing url',
    input: { url: 'https://old:1/mutate-pod' },
    host: 'dev.example',
    want: { caBundle: 'Q0E=', url: 'https://dev.example:9876/mutate-pod' },
  },
];
for (const tc of cases) {
  test(tc.name, () => {
    assert.deepEqual(desiredClientConfig(tc.input, { ...target, ...(tc.host ? { host: tc.host } : {}) }), tc.want);
  });
}

test('every webhook of a configuration is patched, and an up-to-date one reports no change', () => {
  const conf = { metadata: { name: 'kruise-mutating-webhook-configuration' }, webhooks: [
    { name: 'a', clientConfig: { service: { namespace: 'n', name: 's', path: '/a' } } },
    { name: 'b', clientConfig: { service: { namespace: 'n', name: 's', path: '/b' } } },
  ] };
  const first = withClientConfigs(conf, target);
  assert.equal(first.changed, true);
  assert.ok(first.conf.webhooks.every((w: any) => w.clientConfig.caBundle === 'Q0E='));
  assert.equal(conf.webhooks[0]!.clientConfig.service.namespace, 'n', 'input untouched');
  assert.equal(withClientConfigs(first.conf, target).changed, false);
});

test('webhookCaBundles reads each webhook\'s CAs, writes the joined bundle to both configurations, and skips missing ones', async () => {
  const [ca1, ca2] = [generateCA(new Date()), generateCA(new Date())];
  const stored: Record<string, any> = {
    [MUTATING_CONFIGURATION]: { metadata: { name: MUTATING_CONFIGURATION }, webhooks: [{ name: 'a', clientConfig: { caBundle: Buffer.from(ca1.cert).toString('base64'), service: { namespace: 'n', name: 's', path: '/a' } } }] },
  };
  const replaced: string[] = [];
  const notFound = () => Object.assign(new Error('not found'), { code: 404 });
  const api = {
    readMutatingWebhookConfiguration: async ({ name }: { name: string }) => structuredClone(stored[name]) ?? Promise.reject(notFound()),
    readValidatingWebhookConfiguration: async () => { throw notFound(); },
    replaceMutatingWebhookConfiguration: async ({ name, body }: { name: string; body: any }) => { replaced.push(name); stored[name] = body; return body; },
  } as unknown as AdmissionregistrationV1Api;
  const t = webhookCaBundles(api, { port: 9876, service: { namespace: 'kruise-system', name: 'kruise-webhook-service' } });
  assert.deepEqual((await t.read()).map((l) => l.length), [1]);
  await t.write([ca1.cert, ca2.cert]);
  const after = await readCaBundles(api);
  assert.deepEqual(after[0]!.map((c) => new X509Certificate(c).fingerprint256), [ca1.cert, ca2.cert].map((c) => new X509Certificate(c).fingerprint256));
  await t.write([ca1.cert, ca2.cert]);
  assert.deepEqual(replaced, [MUTATING_CONFIGURATION], 'an unchanged configuration is not rewritten');
});
