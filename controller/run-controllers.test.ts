import assert from 'node:assert/strict';
import { test } from 'node:test';
import { selectControllers } from './run-controllers.js';
import type { Controller } from './types.js';

const c = (name: string, featureGate?: Controller['featureGate']): Controller => ({ name, workers: 1, featureGate, setup: () => async () => {} });
const all = [c('plain'), c('gated', 'ResourceDistributionGate')];
const names = (cs: Controller[]) => cs.map((x) => x.name);

test('selectControllers: all controllers whose gate is on when none are named', () => {
  assert.deepEqual(names(selectControllers(all, [], {})), ['plain']);
  assert.deepEqual(names(selectControllers(all, [], { ResourceDistributionGate: true })), ['plain', 'gated']);
});

test('selectControllers: a named controller whose gate is off is an error saying which gate to turn on', () => {
  assert.throws(() => selectControllers(all, ['gated'], { ResourceDistributionGate: false }),
    /controller gated needs feature gate ResourceDistributionGate \(FEATURE_GATES=ResourceDistributionGate=true\)/);
  assert.deepEqual(names(selectControllers(all, ['gated'], { ResourceDistributionGate: true })), ['gated']);
});

test('selectControllers: unknown names list the known ones', () => {
  assert.throws(() => selectControllers(all, ['nope']), /unknown controllers nope; known: plain, gated/);
});

test('KruiseDaemon=false leaves out the daemon-dependent controllers, as upstream', async () => {
  const { controllers } = await import('./controllers.js');
  const { parseFeatureGates } = await import('../shared/feature-gates.js');
  const on = names(selectControllers(controllers, [], parseFeatureGates('').gates));
  const off = names(selectControllers(controllers, [], parseFeatureGates('KruiseDaemon=false').gates));
  for (const n of ['nodeimage-controller', 'imagepulljob-controller', 'imagelistpulljob-controller', 'containerrecreaterequest-controller',
    'podprobemarker-controller', 'nodepodprobe-controller']) {
    assert.ok(on.includes(n), n);
    assert.ok(!off.includes(n), n);
  }
  assert.ok(off.includes('sidecarset-controller'));
  const noProbes = names(selectControllers(controllers, [], parseFeatureGates('PodProbeMarkerGate=false').gates));
  assert.deepEqual(on.filter((n) => !noProbes.includes(n)), ['nodepodprobe-controller', 'podprobemarker-controller']);
});
