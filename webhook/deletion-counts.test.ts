import { it } from 'node:test';
import assert from 'node:assert/strict';
import type { KubernetesObject } from '@kubernetes/client-node';
import type { KubeRest, ListOptions } from '../shared/kube/rest.js';
import type { Resource } from '../shared/kube/resources.js';
import { COUNT_PAGE_SIZE, deletionCounter } from './deletion-counts.js';

/** A REST list over `items` in pages of the asked size, recording each call. */
function pagedRest(items: object[], calls: { path: string; o: ListOptions }[]): KubeRest {
  return {
    list: async (r: Resource, o: ListOptions = {}) => {
      calls.push({ path: `${r.group}/${r.version}/${r.plural}`, o });
      const start = o.continue ? Number(o.continue) : 0;
      const end = start + (o.limit ?? items.length);
      return { items: items.slice(start, end) as KubernetesObject[], metadata: end < items.length ? { continue: String(end) } : {} } as never;
    },
  } as unknown as KubeRest;
}

it('counts active pods over every page, skipping deleting and finished ones, in the namespace only', async () => {
  const pods = [
    ...Array.from({ length: COUNT_PAGE_SIZE + 3 }, () => ({ status: { phase: 'Running' } })),
    { metadata: { deletionTimestamp: 'x' }, status: { phase: 'Running' } }, { status: { phase: 'Succeeded' } },
  ];
  const calls: { path: string; o: ListOptions }[] = [];
  assert.equal(await deletionCounter(pagedRest(pods, calls))({ what: 'active-pods', namespace: 'a' }), COUNT_PAGE_SIZE + 3);
  assert.equal(calls.length, 2);
  assert.ok(calls.every((c) => c.o.namespace === 'a' && c.o.limit === COUNT_PAGE_SIZE && c.o.fieldSelector === 'status.phase!=Succeeded,status.phase!=Failed'));
});

it('counts Bound PVCs and live CRs (cluster-wide, by the CRD storage version)', async () => {
  const calls: { path: string; o: ListOptions }[] = [];
  const count = deletionCounter(pagedRest([{ status: { phase: 'Bound' } }, { status: { phase: 'Pending' } }, { metadata: { deletionTimestamp: 'x' }, status: { phase: 'Bound' } }], calls));
  assert.equal(await count({ what: 'bound-pvcs', namespace: 'a' }), 1);
  assert.equal(await count({ what: 'active-crs', group: 'demo.io', version: 'v1', plural: 'widgets' }), 2);
  assert.equal(calls[1]!.path, 'demo.io/v1/widgets');
  assert.equal(calls[1]!.o.namespace, undefined);
});

it('stops after maxPages: the count so far when positive, an error when nothing counted yet', async () => {
  const many = Array.from({ length: COUNT_PAGE_SIZE * 3 }, () => ({ status: { phase: 'Running' } }));
  const calls: { path: string; o: ListOptions }[] = [];
  assert.equal(await deletionCounter(pagedRest(many, calls), { maxPages: 2 })({ what: 'active-pods', namespace: 'a' }), COUNT_PAGE_SIZE * 2);
  assert.equal(calls.length, 2);
  const deleting = Array.from({ length: COUNT_PAGE_SIZE * 3 }, () => ({ metadata: { deletionTimestamp: 'x' } }));
  await assert.rejects(deletionCounter(pagedRest(deleting, []), { maxPages: 2 })({ what: 'active-crs', group: 'g', version: 'v1', plural: 'ws' }), /more than 1000 ws/);
});
