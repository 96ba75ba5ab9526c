import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ContainerRecreateRequest } from '../../shared/api/container-recreate-request.js';
import type { KubeRest } from '../../shared/kube/rest.js';
import { restCrrWriter } from './kube-adapters.js';

const crr: ContainerRecreateRequest = {
  apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ContainerRecreateRequest',
  metadata: { namespace: 'team', name: 'r1', resourceVersion: '5' }, spec: { podName: 'p', containers: [{ name: 'app' }] },
};

function fakeRest() {
  const calls: unknown[][] = [];
  const stored = (rv: string) => ({ ...crr, metadata: { ...crr.metadata, resourceVersion: rv } });
  const rest = {
    replace: async (...args: unknown[]) => { calls.push(['replace', ...args]); return stored('6'); },
    patch: async (...args: unknown[]) => { calls.push(['patch', ...args]); return stored('7'); },
  } as unknown as KubeRest;
  return { rest, calls };
}

test('the CRR writer replaces the status subresource guarded by the given resourceVersion', async () => {
  const { rest, calls } = fakeRest();
  const res = await restCrrWriter(rest).updateStatus(crr, { phase: 'Recreating' });
  assert.equal(res.metadata?.resourceVersion, '6');
  const [, resource, body, opts] = calls[0] as [string, { plural: string }, ContainerRecreateRequest, object];
  assert.equal(resource.plural, 'containerrecreaterequests');
  assert.deepEqual([body.metadata?.resourceVersion, body.status], ['5', { phase: 'Recreating' }]);
  assert.deepEqual(opts, { subresource: 'status' });
});

test('the CRR writer merge-patches only status.containerRecreateStates', async () => {
  const { rest, calls } = fakeRest();
  const states = [{ name: 'app', phase: 'Pending' as const }];
  await restCrrWriter(rest).patchStates(crr, states);
  assert.deepEqual(calls[0]!.slice(2), [{ namespace: 'team', name: 'r1', subresource: 'status' }, 'merge', { status: { containerRecreateStates: states } }]);
});
