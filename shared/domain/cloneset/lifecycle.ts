// The lifecycle state label without hooks (spec/cloneset.md §3.9; hooks are refused at admission by kruise-ts):
// PreparingNormal → Normal at once [1.8.4], Updating → Normal when the in-place update is complete, Updated → Normal.
import type { Pod } from '../../api/meta.js';
import { readInPlaceGrace } from './inplace-annotations.js';
import { isInPlaceComplete } from './inplace.js';
import { lifecycleState } from './pod-predicates.js';

/** The state this pod should move to now, or undefined to leave it. */
export function nextLifecycleState(pod: Pod): 'Normal' | undefined {
  switch (lifecycleState(pod)) {
    case 'PreparingNormal':
    case 'Updated':
      return 'Normal';
    case 'Updating':
      return isInPlaceComplete(pod) && !readInPlaceGrace(pod) ? 'Normal' : undefined;
    default:
      return undefined;
  }
}
