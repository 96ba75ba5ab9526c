// The PDB gate over a controller's deps: the shared PodDisruptionBudget informer (one watch per process, whichever
// controller asks first) and the controller's own pod cache.
import type { Pod } from '../../shared/api/meta.js';
import type { PodDisruptionBudget } from '../../shared/domain/disruption/pdb-budget.js';
import type { Cache } from '../../shared/kube/informer.js';
import { resources } from '../../shared/kube/resources.js';
import type { ControllerDeps } from '../types.js';
import { pdbGate, type PdbGate } from './pdb-gate.js';

export function pdbGateFor(deps: ControllerDeps, pods: Cache<Pod>): PdbGate {
  const pdbs = deps.informers.cache<PodDisruptionBudget & { metadata?: object }>(resources.podDisruptionBudgets);
  const gate = pdbGate({ rest: deps.rest, clock: deps.clock, log: deps.log, pdbs, pod: (ns, name) => pods.get(`${ns}/${name}`) });
  // A pod back to Ready after its in-place restart gives its disruption back at once (a failed write: the next admit
  // against the PDB, or the disruption controller's timeout, drops it instead).
  pods.onChange((pod) => {
    gate.podChanged(pod).catch((err: unknown) => deps.log.warn({ err, pod: `${pod.metadata?.namespace}/${pod.metadata?.name}` }, 'dropping a finished disruption from its PodDisruptionBudget failed'));
  });
  return gate;
}
