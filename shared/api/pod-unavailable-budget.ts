// policy.kruise.io/v1alpha1 PodUnavailableBudget (spec/availability-guards.md §1): how many of a set of pods may be
// unavailable at once, spent by the pod webhook (DELETE, eviction, in-place UPDATE, RESIZE) and by CloneSet before a
// pod update, and refreshed by the podunavailablebudget-controller. Namespaced, short name `pub`.
import { Type, type Static } from '@sinclair/typebox';
import type { KruiseObject, LabelSelector } from './meta.js';
import { Core, CrdRequired, Int32, Int64, IntOrStr, KindSchema, MapOf, META_V1, Obj, Str } from './schema.js';

export const POLICY_GROUP = 'policy.kruise.io';
export const PUB_API_VERSION = 'policy.kruise.io/v1alpha1';

export const PubTargetReferenceSchema = Obj('TargetReference names a workload in the PodUnavailableBudget\'s namespace whose pods it guards.', {
  apiVersion: Type.Optional(Str('API version of the workload, e.g. apps/v1.')),
  kind: Type.Optional(Str('Kind of the workload, e.g. Deployment.')),
  name: Type.Optional(Str('Name of the workload.')),
});
export type PubTargetReference = Static<typeof PubTargetReferenceSchema>;

export const PodUnavailableBudgetSpecSchema = Obj('PodUnavailableBudgetSpec says which pods are guarded and how many of them may be unavailable.', {
  selector: Type.Optional(Core<LabelSelector>(`${META_V1}LabelSelector`, 'Pods of the namespace matching this selector are guarded; mutually exclusive with targetRef.')),
  targetRef: Type.Optional(PubTargetReferenceSchema),
  maxUnavailable: Type.Optional(IntOrStr('At most this many of the guarded pods (a number, or a percentage of the expected pods, rounded up) may be unavailable after an operation on a pod.')),
  minAvailable: Type.Optional(IntOrStr('At least this many of the guarded pods (a number, or a percentage of the expected pods, rounded up) stay available after an operation on a pod.')),
});
export type PodUnavailableBudgetSpec = Static<typeof PodUnavailableBudgetSpecSchema>;

const podTimes = (d: string) => MapOf(Type.String({ format: 'date-time' }), d);

export const PodUnavailableBudgetStatusSchema = Obj('PodUnavailableBudgetStatus is the budget as the controller and the pod webhook last wrote it.', {
  observedGeneration: Type.Optional(Int64('The metadata.generation the controller last computed this status from.')),
  disruptedPods: Type.Optional(podTimes('Pods admitted for deletion, eviction or resize, by name, with the time of admission; dropped once the controller sees them go (or after a time-out).')),
  unavailablePods: Type.Optional(podTimes('Pods admitted for an in-place update, by name, with the time of admission; dropped once the controller sees them unavailable (or after a time-out).')),
  unavailableAllowed: CrdRequired(Int32('How many more pods may become unavailable now.')),
  currentAvailable: CrdRequired(Int32('Available guarded pods not recorded in disruptedPods or unavailablePods.')),
  desiredAvailable: CrdRequired(Int32('The least number of available pods the budget keeps.')),
  totalReplicas: CrdRequired(Int32('The expected number of guarded pods.')),
});
export type PodUnavailableBudgetStatus = Static<typeof PodUnavailableBudgetStatusSchema>;

export const PodUnavailableBudgetSchema = KindSchema('PodUnavailableBudget is the Schema for the podunavailablebudgets API: it limits how many of a set of pods may be unavailable because of deletion, eviction or in-place updates.',
  PodUnavailableBudgetSpecSchema, PodUnavailableBudgetStatusSchema);
export type PodUnavailableBudget = KruiseObject<PodUnavailableBudgetSpec, PodUnavailableBudgetStatus>;

/** Pod annotation: the PUB guarding the pod (written at pod creation and by the controller). */
export const PubRelatedAnnotation = 'kruise.io/related-pub';
/** PUB annotation: comma list of DELETE, UPDATE, EVICT, RESIZE the PUB guards. */
export const PubProtectOperationAnnotation = 'kruise.io/pub-protect-operations';
/** PUB annotation: the expected pod count, overriding the workload's. */
export const PubProtectTotalReplicasAnnotation = 'pub.kruise.io/protect-total-replicas';
/** Pod annotation: exactly "true" exempts the pod from its PUB. */
export const PodPubNoProtectionAnnotation = 'pub.kruise.io/no-protect';
/** Pod label prefix: a pod with such a label counts as not ready for PUB. */
export const PubUnavailablePodLabelPrefix = 'unavailable-pod.kruise.io/';

export type PubOperation = 'DELETE' | 'UPDATE' | 'EVICT' | 'RESIZE';
export const PUB_OPERATIONS: readonly PubOperation[] = ['UPDATE', 'DELETE', 'EVICT', 'RESIZE'];
