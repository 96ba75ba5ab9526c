// The CLI's offline admission passes an ImageListPullJob through its webhooks, as the apiserver would.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { offlineAdmission } from './admit.js';

const list = (images: string[]) => ({ apiVersion: 'apps.kruise.io/v1beta1', kind: 'ImageListPullJob', metadata: { name: 'l', namespace: 'default' }, spec: { images } });

test('an ImageListPullJob is defaulted, and a duplicate image is refused with upstream\'s message', async () => {
  const admission = offlineAdmission([]);
  assert.ok(admission.admits('ImageListPullJob'));
  const ok = await admission.create(list(['nginx:1']));
  assert.ok(ok.allowed);
  assert.deepEqual((ok.object as { spec?: unknown }).spec, { images: ['nginx:1'], completionPolicy: { type: 'Always' }, pullPolicy: { timeoutSeconds: 600, backoffLimit: 3 } });
  const bad = await admission.create(list(['nginx:1', 'nginx:1']));
  assert.equal(bad.allowed, false);
  assert.match(bad.allowed ? '' : bad.reason, /images cannot have duplicate values/);
});
