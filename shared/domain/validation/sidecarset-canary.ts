// Validation of canary SidecarSets (upstream HEAD validateSidecarSetCanaryAnnotations, spec/webhooks.md §8).
import type { SidecarSet } from '../../api/sidecarset.js';
import { SidecarSetBaseAnnotation } from '../../api/sidecarset.js';
import type { Violation } from '../../errors.js';
import { canaryBaseOf } from '../sidecarset-canary.js';

/** Every violation is reported on `metadata` with the annotations as value, as upstream does. */
export function validateSidecarSetCanary(obj: SidecarSet, old: SidecarSet | undefined, stored: readonly SidecarSet[]): Violation[] {
  const base = canaryBaseOf(obj);
  if (base === undefined) return [];
  const errs: Violation[] = [];
  const invalid = (detail: string): Violation => ({ field: 'metadata', type: 'Invalid value', value: obj.metadata?.annotations ?? {}, detail });
  if (base === obj.metadata?.name) errs.push(invalid('base sidecarSet cannot be itself'));
  if (old && old.metadata?.annotations?.[SidecarSetBaseAnnotation] !== base) errs.push(invalid(`annotations[${SidecarSetBaseAnnotation}] is immutable`));
  const baseSet = stored.find((s) => s.metadata?.name === base);
  if (!baseSet) errs.push(invalid(`fetch base sidecarSet[${base}] failed: sidecarsets.apps.kruise.io "${base}" not found`));
  else if (canaryBaseOf(baseSet) !== undefined) errs.push(invalid('base sidecarSet cannot be canary'));
  if (obj.spec?.updateStrategy?.type !== 'NotUpdate') errs.push(invalid('RollingUpdate is not supported for canary sidecarSet'));
  return errs;
}
