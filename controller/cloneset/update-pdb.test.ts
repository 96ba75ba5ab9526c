// CloneSet in-place updates under a PodDisruptionBudget (controller/disruption/pdb-gate.ts): a maxUnavailable of 3
// is cut to what the PDB allows, with a stand-in for the disruption controller recounting the budget between rounds.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KubernetesObject } from '@kubernetes/client-node';
import type { Pod } from '../../shared/api/meta.js';
import type { PodDisruptionBudget } from '../../shared/domain/disruption/pdb-budget.js';
import { resources } from '../../shared/kube/resources.js';
import { RespectPdbAnnotation } from '../disruption/pdb-gate.js';
import { CloneSetHarness, webCloneSet } from './test-harness.js';

const NEW_IMAGE = 'nginx:2';
/** fakeDeps' clock; a record taken then, and a pod Ready again a few seconds later. */
const BACK_READY = '2025-06-01T12:00:05Z';

const ready = (p: Pod) => p.status?.conditions?.find((c) => c.type === 'Ready')?.status === 'True';

async function setup(annotations: Record<string, string> = {}) {
  const h = new CloneSetHarness(webCloneSet());
  await h.settle();
  h.cluster.seed(resources.podDisruptionBudgets, {
    apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'web', namespace: 'default', generation: 1 },
    spec: { selector: { matchLabels: { app: 'web' } } },
    status: { observedGeneration: 1, disruptionsAllowed: 1, currentHealthy: 3, desiredHealthy: 2, expectedPods: 3 },
  } as PodDisruptionBudget & KubernetesObject);
  await h.editCloneSet((cs) => {
    cs.metadata!.annotations = { ...cs.metadata?.annotations, ...annotations };
    cs.spec!.updateStrategy = { ...cs.spec!.updateStrategy, type: 'InPlaceIfPossible', maxUnavailable: 3 };
    cs.spec!.template.spec!.containers[0]!.image = NEW_IMAGE;
  });
  return h;
}

const pdb = (h: CloneSetHarness) => h.cluster.get<PodDisruptionBudget & KubernetesObject>(resources.podDisruptionBudgets, 'web', 'default')!;

/** The disruption controller's recount: healthy = Ready and not recorded; allowed = healthy − desired. */
async function recount(h: CloneSetHarness) {
  const b = pdb(h);
  const recorded = new Set(Object.keys(b.status?.disruptedPods ?? {}));
  const healthy = h.pods().filter((p) => ready(p) && !recorded.has(p.metadata!.name!)).length;
  await h.cluster.rest.replace(resources.podDisruptionBudgets, { ...b, status: { ...b.status!, currentHealthy: healthy, disruptionsAllowed: Math.max(0, healthy - 2) } } as never, { subresource: 'status' });
}

/** Kubelet, plus a Ready condition that says when it came back (kubeletRan keeps one fixed time). */
async function kubelet(h: CloneSetHarness, wasReady: Map<string, boolean>) {
  await h.runPods();
  for (const p of h.pods()) {
    const name = p.metadata!.name!;
    if (ready(p) && wasReady.get(name) === false) {
      await h.editPod(name, (x) => { x.status!.conditions!.find((c) => c.type === 'Ready')!.lastTransitionTime = BACK_READY as never; });
    }
    wasReady.set(name, ready(p));
  }
}

/** The harness's queue through its reconcile (private to the harness, reached here for round-by-round control). */
const drain = (h: CloneSetHarness) => h.queue.drain((k) => (h as unknown as { reconcile: (k: string) => Promise<{ requeueAfterMs?: number } | void> }).reconcile(k));

const updatedInPlace = (p: Pod) => p.spec?.containers[0]?.image === NEW_IMAGE;
const unavailable = (p: Pod) => !ready(p) || p.status?.conditions?.find((c) => c.type === 'InPlaceUpdateReady')?.status === 'False'
  || p.spec?.containers[0]?.image !== p.status?.containerStatuses?.[0]?.image;

describe('CloneSet in-place updates and PodDisruptionBudgets', () => {
  it('maxUnavailable 3 under a PDB allowing one: one pod per round, requeued with backoff, never two unavailable', async () => {
    const h = await setup();
    await drain(h);
    assert.equal(h.pods().filter(updatedInPlace).length, 1, 'the first round: one pod');
    assert.deepEqual(Object.keys(pdb(h).status?.disruptedPods ?? {}).length, 1);
    assert.equal(pdb(h).status?.disruptionsAllowed, 0);
    const delay = h.queue.delayed.get('default/web') ?? 0;
    assert.ok(delay >= 1000 && delay <= 30_000, `the others wait, backing off (${delay} ms)`);

    const wasReady = new Map<string, boolean>();
    let worst = 0;
    for (let i = 0; i < 30 && h.pods().filter(updatedInPlace).length < 3; i++) {
      await kubelet(h, wasReady);
      worst = Math.max(worst, h.pods().filter(unavailable).length);
      await recount(h);
      h.queue.add('default/web');
      await drain(h);
      worst = Math.max(worst, h.pods().filter(unavailable).length);
    }
    assert.equal(h.pods().filter(updatedInPlace).length, 3, 'the rollout finishes');
    assert.equal(worst, 1, 'never more than the PDB allows');
    assert.equal(h.pods().length, 3, 'in place: no pod recreated');
  });

  it(`${RespectPdbAnnotation}: "false" on the CloneSet: maxUnavailable alone decides`, async () => {
    const h = await setup({ [RespectPdbAnnotation]: 'false' });
    await drain(h);
    assert.equal(h.pods().filter(updatedInPlace).length, 3);
    assert.equal(pdb(h).status?.disruptedPods, undefined);
  });
});
