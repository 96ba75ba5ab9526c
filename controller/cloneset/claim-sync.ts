// The PVC writes of a CloneSet (spec/cloneset.md §2.5, §3.5): a pod's claims created before it (those that do not
// exist yet), deleted after it when the controller deletes it, and with `disablePVCReuse` the claims no active pod
// uses re-owned to their terminating pod or deleted. Creates and deletes run under scale expectations, as pods do.
import type { Pod } from '../../shared/api/meta.js';
import { claimsFor, claimsOfPod, instanceIdOf, ownerRefsToPod, planClaimCleanup, type Claim } from '../../shared/domain/cloneset/volume-claims.js';
import { resources } from '../../shared/kube/resources.js';
import { isNotFound } from '../../shared/kube/rest.js';
import { FIELD_MANAGER, subject, type Round } from './context.js';

const where = (c: Claim) => ({ namespace: c.metadata?.namespace ?? '', name: c.metadata?.name ?? '' });

/** Creates the claims of `pod` that are not in `existing`; throws the first failure (the pod is then not created). */
export async function createClaims(round: Round, pod: Pod, existing: ReadonlySet<string>): Promise<void> {
  const { deps, cs } = round;
  for (const claim of claimsFor(cs, instanceIdOf(pod))) {
    const name = claim.metadata?.name ?? '';
    if (existing.has(name)) continue;
    deps.scaleExpectations.expect(round.key, name);
    try {
      await deps.rest.create(resources.persistentVolumeClaims, claim);
    } catch (err) {
      deps.scaleExpectations.observe(round.key, name);
      deps.events.event(subject(cs), 'Warning', 'FailedCreate', `failed to create pvc: ${(err as Error).message}, pvc: ${JSON.stringify(claim)}`);
      throw err;
    }
  }
}

/** Deletes the claims sharing `pod`'s instance id, after the controller deleted the pod. */
export async function deleteClaimsOf(round: Round, pod: Pod): Promise<void> {
  for (const claim of claimsOfPod(pod, round.claims)) {
    await deleteClaim(round, claim, 'failed to delete pvc');
  }
}

/**
 * `disablePVCReuse` (§3.2 step 5): claims of ids without an active pod go — with their inactive pod (re-owned to
 * it, so the garbage collector takes them together) or at once. Resolves the claims active pods still use.
 */
export async function cleanupClaims(round: Round, activePods: readonly Pod[], inactivePods: readonly Pod[]): Promise<Claim[]> {
  const { deps, cs } = round;
  const plan = planClaimCleanup(activePods, inactivePods, round.claims);
  for (const { claim, pod } of plan.reown) {
    try {
      await deps.rest.patch(resources.persistentVolumeClaims, where(claim), 'merge', {
        metadata: { resourceVersion: claim.metadata?.resourceVersion, ownerReferences: ownerRefsToPod(claim, cs, pod) },
      }, { fieldManager: FIELD_MANAGER });
    } catch (err) {
      if (isNotFound(err)) continue;
      deps.events.event(subject(cs), 'Warning', 'FailedUpdate', `failed to update PVC ${claim.metadata?.name ?? ''}: ${(err as Error).message}`);
      throw err;
    }
  }
  for (const claim of plan.remove) {
    await deleteClaim(round, claim, 'failed to clean up PVC');
  }
  return plan.kept;
}

/** Deletes one claim under a scale expectation; NotFound is done, another failure is an event and the error. */
async function deleteClaim(round: Round, claim: Claim, failure: string): Promise<void> {
  const { deps, cs } = round;
  const name = claim.metadata?.name ?? '';
  deps.scaleExpectations.expect(round.key, name);
  try {
    await deps.rest.delete(resources.persistentVolumeClaims, where(claim), { uid: claim.metadata?.uid });
  } catch (err) {
    deps.scaleExpectations.observe(round.key, name);
    if (isNotFound(err)) return;
    deps.events.event(subject(cs), 'Warning', 'FailedDelete', `${failure} ${name}: ${(err as Error).message}`);
    throw err;
  }
}
