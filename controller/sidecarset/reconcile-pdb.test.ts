// A SidecarSet rollout (maxUnavailable 100%) over pods a PodDisruptionBudget covers: the batch is cut to what the
// budget allows (controller/disruption/pdb-gate.ts), the rest polls again; the opt-out annotation restores the batch.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubernetesObject } from '@kubernetes/client-node';
import type { Pod } from '../../shared/api/meta.js';
import type { SidecarSet } from '../../shared/api/sidecarset.js';
import type { PodDisruptionBudget } from '../../shared/domain/disruption/pdb-budget.js';
import { RespectPdbAnnotation } from '../disruption/pdb-gate.js';
import { image, kubelet, makePod, makeSet, withImage } from './fixtures.js';
import { harness } from './reconcile-harness.js';
import { PREPULL_POLL_MS } from './reconcile-deps.js';

const v1 = makeSet({ strategy: { maxUnavailable: '100%' } });
const three = () => ['a', 'b', 'c'].map((n) => kubelet(makePod(n, [v1])));

const budget = (allowed: number, disruptedPods?: Record<string, string>): PodDisruptionBudget & KubernetesObject => ({
  apiVersion: 'policy/v1', kind: 'PodDisruptionBudget',
  metadata: { name: 'web', namespace: 'default', generation: 1, resourceVersion: '5' },
  spec: { selector: { matchLabels: { app: 'web' } } },
  status: { observedGeneration: 1, disruptionsAllowed: allowed, currentHealthy: 3, desiredHealthy: 3 - allowed, expectedPods: 3, ...(disruptedPods ? { disruptedPods } : {}) },
});

const sidecarImages = (h: ReturnType<typeof harness>) => ['a', 'b', 'c'].map((n) => image(h.api.table('pods').get(`default/${n}`) as Pod, 'sidecar'));

async function rolledOut(set: SidecarSet, allowed: number) {
  const h = harness(set, three(), { pdb: true });
  h.api.put('poddisruptionbudgets', budget(allowed) as never);
  await h.run();
  h.world.set = { ...withImage(set, 'busybox:2.0'), status: h.world.set.status };
  const result = await h.run();
  return { h, result };
}

test('maxUnavailable 100% under a PDB allowing one disruption: one pod is updated, the others wait and poll again', async () => {
  const { h, result } = await rolledOut(v1, 1);
  assert.deepEqual(sidecarImages(h), ['busybox:2.0', 'busybox:1.0', 'busybox:1.0']);
  assert.deepEqual(result, { requeueAfterMs: PREPULL_POLL_MS });
  const pdb = h.api.table('poddisruptionbudgets').get('default/web') as PodDisruptionBudget;
  assert.equal(pdb.status?.disruptionsAllowed, 0);
  assert.deepEqual(Object.keys(pdb.status?.disruptedPods ?? {}), ['a']);
  assert.deepEqual(h.api.log.filter((l) => l.includes('poddisruptionbudgets')), ['PUT poddisruptionbudgets web']);
});

test('no disruption allowed: no pod is written; once the budget allows one again, the next pod goes', async () => {
  const { h } = await rolledOut(v1, 0);
  assert.deepEqual(sidecarImages(h), ['busybox:1.0', 'busybox:1.0', 'busybox:1.0']);
  assert.deepEqual(h.api.log.filter((l) => l.startsWith('PATCH pods ') || l.startsWith('PUT')), []);
  // The disruption controller recounts: one allowed.
  h.api.put('poddisruptionbudgets', budget(1) as never);
  h.sync();
  await h.run();
  assert.equal(sidecarImages(h).filter((i) => i === 'busybox:2.0').length, 1);
});

test(`${RespectPdbAnnotation}: "false" on the SidecarSet: the whole batch goes, the PDB untouched`, async () => {
  const off = { ...v1, metadata: { ...v1.metadata, annotations: { ...v1.metadata?.annotations, [RespectPdbAnnotation]: 'false' } } };
  const { h, result } = await rolledOut(off, 0);
  assert.deepEqual(sidecarImages(h), ['busybox:2.0', 'busybox:2.0', 'busybox:2.0']);
  assert.equal(result, undefined);
  assert.equal((h.api.table('poddisruptionbudgets').get('default/web') as PodDisruptionBudget).status?.disruptionsAllowed, 0);
});
