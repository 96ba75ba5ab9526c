// The pod a CloneSet creates (spec/cloneset.md §2.2): built from the template stored in the revision it is created
// at, named `<cloneset>-<id>`, with the revision, instance-id and lifecycle labels, the controller reference and the
// InPlaceUpdateReady readiness gate (always, whatever the update type), and one PVC volume per volumeClaimTemplate.
import type { CloneSet } from '../../api/cloneset.js';
import {
  CloneSetInstanceIdLabel, InPlaceUpdateReadyConditionType, LifecycleStateLabel, LifecycleTimestampAnnotation, PodRevisionLabel, PodTemplateHashLabel,
} from '../../api/cloneset.js';
import { KRUISE_API_VERSION, type Pod } from '../../api/meta.js';
import { rfc3339 } from './inplace-annotations.js';
import { podName } from './names.js';
import { hashOf, revisionTemplate, type CloneSetRevision } from './revision.js';
import { volumesWithClaims } from './volume-claims.js';

export function newPod(cs: CloneSet, revision: CloneSetRevision, id: string, nowMs: number): Pod {
  const template = structuredClone(revisionTemplate(revision) ?? {}) as { metadata?: Record<string, any>; spec?: Pod['spec'] };
  const tm = template.metadata ?? {};
  const md = cs.metadata ?? {};
  const rev = revision.metadata.name;
  const spec = (template.spec ?? { containers: [] }) as NonNullable<Pod['spec']>;
  if (!(spec.readinessGates ?? []).some((g) => g.conditionType === InPlaceUpdateReadyConditionType)) {
    spec.readinessGates = [...(spec.readinessGates ?? []), { conditionType: InPlaceUpdateReadyConditionType }];
  }
  const volumes = volumesWithClaims(cs, id, spec.volumes);
  if (volumes) spec.volumes = volumes;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: podName(md.name ?? '', id),
      generateName: `${md.name ?? ''}-`,
      namespace: md.namespace,
      labels: {
        ...(tm.labels ?? {}),
        [CloneSetInstanceIdLabel]: id,
        [PodRevisionLabel]: rev,
        [PodTemplateHashLabel]: hashOf(rev),
        [LifecycleStateLabel]: 'PreparingNormal',
      },
      annotations: { ...(tm.annotations ?? {}), [LifecycleTimestampAnnotation]: rfc3339(nowMs) },
      ...(tm.finalizers?.length ? { finalizers: tm.finalizers } : {}),
      ownerReferences: [{ apiVersion: KRUISE_API_VERSION, kind: 'CloneSet', name: md.name ?? '', uid: md.uid ?? '', controller: true, blockOwnerDeletion: true }],
    },
    spec,
  };
}
