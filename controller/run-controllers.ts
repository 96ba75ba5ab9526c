// Starts the given controllers on one leadership term: builds a queue each, lets them subscribe, waits for the
// shared caches to list, then runs their workers until `signal` aborts.
import { WorkQueue } from '../shared/reconcile/queue.js';
import { runReconciler } from '../shared/reconcile/runner.js';
import type { FeatureGate } from '../shared/config.js';
import type { Controller, ControllerDeps } from './types.js';

export async function runControllers(controllers: readonly Controller[], deps: ControllerDeps, signal: AbortSignal): Promise<void> {
  const started = controllers.map((c) => {
    const queue = new WorkQueue({ clock: deps.clock });
    return { c, queue, reconcile: c.setup(deps, queue) };
  });
  // Reconciling from a half-listed cache would act on a partial world (e.g. count a SidecarSet's pods as zero).
  await Promise.race([deps.informers.synced(), new Promise((r) => signal.addEventListener('abort', r, { once: true }))]);
  if (signal.aborted) return;
  deps.log.info({ controllers: controllers.map((c) => c.name) }, 'caches synced; starting controllers');
  await Promise.all(started.map(({ c, queue, reconcile }) =>
    runReconciler({ name: c.name, reconcile, queue, workers: c.workers, log: deps.log, metrics: deps.metrics, signal, clock: deps.clock })));
}

/**
 * The controllers named in `enabled` (all when it is empty) whose feature gate is on. Unknown names, and names whose
 * gate is off, are an error saying what to change; with `enabled` empty, gated-off controllers are just left out.
 */
export function selectControllers(all: readonly Controller[], enabled: readonly string[], gates: Readonly<Partial<Record<FeatureGate, boolean>>> = {}): Controller[] {
  const gateOn = (c: Controller) => c.featureGate === undefined || gates[c.featureGate] === true || (c.orFeatureGate !== undefined && gates[c.orFeatureGate] === true);
  if (enabled.length === 0) return all.filter(gateOn);
  const known = new Map(all.map((c) => [c.name, c]));
  const unknown = enabled.filter((n) => !known.has(n));
  if (unknown.length) throw new Error(`unknown controllers ${unknown.join(', ')}; known: ${all.map((c) => c.name).join(', ')}`);
  const gatedOff = enabled.map((n) => known.get(n)!).filter((c) => !gateOn(c));
  if (gatedOff.length) {
    throw new Error(gatedOff.map((c) => `controller ${c.name} needs feature gate ${c.featureGate} (FEATURE_GATES=${c.featureGate}=true)`).join('; '));
  }
  return enabled.map((n) => known.get(n)!);
}
