// Kubernetes' pod validation (k8s.io/kubernetes pkg/apis/core/validation v1.34, ValidatePodCreate) as OpenKruise runs
// it on a SidecarSet (spec/webhooks.md §3 step 10): over a fake pod {name test, restartPolicy Always, dnsPolicy
// ClusterFirst, serviceAccountName default, terminationGracePeriodSeconds 30} holding the SidecarSet's containers,
// init containers and volumes. Only the container and volume rules can fire (every other pod field is fixed and
// valid), and they run in upstream's order: volumes, containers, init containers, then the image-whitespace check.
import type { Container, Volume } from '../../api/meta.js';
import type { Violation } from '../../errors.js';
import { validateContainers, validateImageWhitespace, validateInitContainers } from './containers.js';
import { validateVolumes } from './volumes/index.js';

export interface PodSpecSubset {
  initContainers?: Container[];
  containers?: Container[];
  volumes?: Volume[];
}

/** kruise's fake pod: v1.DefaultTerminationGracePeriodSeconds. */
const gracePeriod = 30;

export function validatePodSpecSubset(spec: PodSpecSubset): Violation[] {
  const containers: unknown[] = Array.isArray(spec.containers) ? spec.containers : [];
  const inits: unknown[] = Array.isArray(spec.initContainers) ? spec.initContainers : [];
  const { byName, errors } = validateVolumes(spec.volumes, 'spec.volumes');
  const ctx = { volumes: byName, gracePeriod };
  return [
    ...errors,
    ...validateContainers(containers, ctx, 'spec.containers'),
    ...validateInitContainers(inits, containers, ctx, 'spec.initContainers'),
    ...validateImageWhitespace(containers, 'spec.containers'),
    ...validateImageWhitespace(inits, 'spec.initContainers'),
  ];
}
