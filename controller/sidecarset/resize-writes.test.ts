// A PodUnavailableBudget's refusal of a sidecar resize is retried; other 403s are remembered as refusals.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { KubeApiError, type KubeRest } from '../../shared/kube/rest.js';
import { resizePod } from './resize-writes.js';

const refusing = (message: string) => ({ patch: async () => { throw new KubeApiError('PATCH', '/api/v1/namespaces/d/pods/p/resize', 403, JSON.stringify({ reason: 'Forbidden', message })); } }) as unknown as KubeRest;

it('a PUB refusal throws (the reconcile retries); an RBAC 403 is a refusal for this hash', async () => {
  const pub = 'admission webhook "vpod.kb.io" denied the request: podunavailablebudget.policy.kruise.io "web" is forbidden: pub unavailable allowed is negative';
  await assert.rejects(resizePod(refusing(pub), { namespace: 'd', name: 'p' }, {}), (e: KubeApiError) => e.code === 403);
  const rbac = await resizePod(refusing('pods "p" is forbidden: User "x" cannot patch resource "pods/resize"'), { namespace: 'd', name: 'p' }, {});
  assert.equal(rbac.kind, 'refused');
});
