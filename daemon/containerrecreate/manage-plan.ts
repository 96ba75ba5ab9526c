// The "manage" step of the daemon's CRR sync (spec/daemon-and-controllers.md §4.4 step 4) as a pure decision.
// It walks the containers in spec order and asks for at most one kill at a time: the caller performs it, records
// the outcome in `killOutcomes` and asks again, so the walk resumes where it stopped with the kill's result.
import type {
  ContainerRecreateRequest,
  ContainerRecreateRequestContainerRecreateState as RecreateState,
} from '../../shared/api/container-recreate-request.js';
import { NOT_FOUND_ON_NODE } from './states.js';

export type KillOutcome = { ok: true } | { ok: false; error: string };

export interface ManageInput {
  crr: ContainerRecreateRequest;
  /** currentStates(...) for this round. */
  states: readonly RecreateState[];
  /** Names that have at least one CRI instance on the node. */
  presentNames: ReadonlySet<string>;
  /** Kills already performed in this round, by container name. */
  killOutcomes?: ReadonlyMap<string, KillOutcome>;
}

export type ManageDecision =
  /** Merge-patch status.containerRecreateStates and end the round (the resulting watch event starts the next). */
  | { type: 'patch-states'; states: RecreateState[] }
  /** Stop the newest instance of `container`, then call planManage again with the outcome. */
  | { type: 'kill'; container: string }
  /** Finish the CRR: phase Completed, completionTime now, `message`. */
  | { type: 'complete'; message: string }
  /** Nothing to write; look again after `requeueAfterMs` (minStartedSeconds), or on the next event. */
  | { type: 'wait'; requeueAfterMs?: number };

const clean = (s: RecreateState): RecreateState => ({
  name: s.name, phase: s.phase, ...(s.message ? { message: s.message } : {}), ...(s.isKilled ? { isKilled: true } : {}),
});

/** Status lists compared the way they serialise (omitempty message/isKilled). */
export function sameStates(a: readonly RecreateState[] | undefined, b: readonly RecreateState[]): boolean {
  return JSON.stringify((a ?? []).map(clean)) === JSON.stringify(b.map(clean));
}

/**
 * Why the CRR failed, for status.message; empty when nothing failed. Upstream leaves the message empty and the
 * reason only in the per-container states (see docs/compatibility.md).
 */
export function failureMessage(states: readonly RecreateState[]): string {
  return states.filter((s) => s.phase === 'Failed')
    .map((s) => `failed to recreate container ${s.name}${s.message ? `: ${s.message}` : ''}`).join('; ');
}

export function planManage(input: ManageInput): ManageDecision {
  const { crr, presentNames } = input;
  const stored = crr.status?.containerRecreateStates;
  if (!sameStates(stored, input.states)) return { type: 'patch-states', states: input.states.map(clean) };

  const strategy = crr.spec?.strategy ?? {};
  const ignore = strategy.failurePolicy === 'Ignore';
  const states = input.states.map(clean);
  let completed = 0;
  walk: for (const state of states) {
    switch (state.phase) {
      case 'Succeeded':
        completed++;
        continue;
      case 'Failed':
        completed++;
        if (ignore) continue;
        return { type: 'complete', message: failureMessage(states) };
      case 'Recreating':
        state.isKilled = true;
        if (strategy.orderedRecreate) break walk;
        continue;
    }
    // Pending. A container with no instance on the node fails instead of blocking the walk forever (upstream
    // waits; see docs/compatibility.md). Its pod is known to exist: the caller ends CRRs of gone pods first.
    if (!presentNames.has(state.name)) {
      Object.assign(state, { phase: 'Failed', message: NOT_FOUND_ON_NODE });
      if (ignore) continue;
      return { type: 'patch-states', states };
    }
    const outcome = input.killOutcomes?.get(state.name);
    if (!outcome) return { type: 'kill', container: state.name };
    if (!outcome.ok) {
      Object.assign(state, { phase: 'Failed', message: `kill container error: ${outcome.error}` });
      if (ignore) continue;
      return { type: 'patch-states', states };
    }
    Object.assign(state, { phase: 'Recreating', isKilled: true });
    // At most one kill per round: the status patch below triggers the next round.
    break;
  }

  if (!sameStates(stored, states)) return { type: 'patch-states', states };
  if (completed === states.length) return { type: 'complete', message: failureMessage(states) };
  const minStarted = strategy.minStartedSeconds ?? 0;
  return minStarted > 0 ? { type: 'wait', requeueAfterMs: minStarted * 1000 } : { type: 'wait' };
}
