// CloneSet's PodUnavailableBudget pre-check (spec/availability-guards.md §17.2): with PodUnavailableBudgetUpdateGate,
// each pod about to be updated (in place or by recreate) spends one unit of its PUB as operation UPDATE by
// `kruise-manager`; a refusal stops the round's further updates and looks again in 1 s. The spender is the one the
// PUB controller writes the status with (podunavailablebudget/budget.ts), so both share its per-PUB lock.
import type { Pod } from '../../shared/api/meta.js';
import { podExemption, pubExemption, relatedPubName } from '../../shared/domain/pub/budget.js';
import type { ControllerDeps } from '../types.js';
import { pubBudget } from '../podunavailablebudget/budget.js';
import { requeueAfter, type Round } from './context.js';

/** true: go on with this pod's update; false: the PUB refused, hold the rest of the round. Errors end the round. */
export type PubUpdateGate = (pod: Pod) => Promise<boolean>;

export const PUB_DENIED_REQUEUE_MS = 1_000;

export function pubUpdateGate(deps: Pick<ControllerDeps, 'rest' | 'informers' | 'clock'>, inPlacePodVerticalScaling: boolean): PubUpdateGate {
  const { spender, pubs } = pubBudget(deps);
  return async (pod) => {
    if (podExemption(pod)) return true;
    const ns = pod.metadata?.namespace ?? '';
    const pubName = relatedPubName(pod);
    const pub = pubName ? pubs.get(`${ns}/${pubName}`) : undefined;
    if (!pub || !pubName) return true;
    const podName = pod.metadata?.name ?? '';
    if (pubExemption(pub, podName, 'UPDATE', inPlacePodVerticalScaling)) return true;
    const r = await spender.spend({ namespace: ns, pubName, podName, operation: 'UPDATE', dryRun: false });
    return r.allowed;
  };
}

/** The round's check before updating `pod`: true without a gate; a refusal asks for the 1 s requeue. */
export async function pubAllowsUpdate(round: Round, pod: Pod): Promise<boolean> {
  if (!round.deps.pubUpdateGate || await round.deps.pubUpdateGate(pod)) return true;
  requeueAfter(round, PUB_DENIED_REQUEUE_MS);
  return false;
}
