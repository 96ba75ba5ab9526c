import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubernetesObject } from '@kubernetes/client-node';
import { LIST_PAGE_SIZE, listAllPages, stripManagedFields } from './informer-factory.js';
import { resources } from './resources.js';
import { KubeApiError, type KubeRest, type ListOptions } from './rest.js';

const pod = (i: number) => ({ metadata: { name: `p${i}`, managedFields: [{ manager: 'm' }] } }) as KubernetesObject;

function pagedRest(n: number, expireAfter?: number): { rest: KubeRest; calls: ListOptions[] } {
  const calls: ListOptions[] = [];
  const rest = {
    list: async (_r: unknown, o: ListOptions = {}) => {
      calls.push(o);
      const start = o.continue ? Number(o.continue) : 0;
      if (expireAfter !== undefined && start >= expireAfter) throw new KubeApiError('GET', '/pods', 410, '{"reason":"Expired"}');
      const end = o.limit ? Math.min(n, start + o.limit) : n;
      const items = Array.from({ length: end - start }, (_, k) => pod(start + k));
      return { metadata: { resourceVersion: `rv${calls.length}`, ...(end < n ? { continue: String(end) } : {}) }, items };
    },
  } as unknown as KubeRest;
  return { rest, calls };
}

test('lists page by page and returns every item at the first page\'s resourceVersion, without managedFields', async () => {
  const { rest, calls } = pagedRest(1_201);
  const list = await listAllPages(rest, resources.pods, { labelSelector: 'a=b' });
  assert.equal(list.items.length, 1_201);
  assert.equal(list.metadata?.resourceVersion, 'rv1');
  assert.deepEqual(calls.map((c) => [c.limit, c.continue, c.labelSelector]), [[LIST_PAGE_SIZE, undefined, 'a=b'], [LIST_PAGE_SIZE, '500', 'a=b'], [LIST_PAGE_SIZE, '1000', 'a=b']]);
  assert.ok(list.items.every((i) => i.metadata?.managedFields === undefined));
});

test('an expired continue token lists everything again in one request', async () => {
  const { rest, calls } = pagedRest(1_000, 500);
  const list = await listAllPages(rest, resources.pods, {});
  assert.equal(list.items.length, 1_000);
  assert.equal(calls.at(-1)?.limit, undefined);
});

test('stripManagedFields keeps everything else', () => {
  const p = { metadata: { name: 'x', labels: { a: 'b' }, managedFields: [] }, spec: {} } as KubernetesObject;
  assert.deepEqual(stripManagedFields(p), { metadata: { name: 'x', labels: { a: 'b' } }, spec: {} });
});
