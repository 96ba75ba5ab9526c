// FEATURE_GATES as OpenKruise v1.9.0 reads --feature-gates (spec/openkruise-v1.9.md §10): every upstream gate name
// is accepted, so a user's existing value keeps working; a name no OpenKruise version knows is a start-up error, as
// upstream's component-base refuses it. Gates of features kruise-ts does not have are reported once at start.

type Stage = 'alpha' | 'beta';

/** Every gate of OpenKruise v1.9.0 with its upstream default and stage (pkg/features/kruise_features.go). */
const UPSTREAM_GATES: Record<string, readonly [boolean, Stage]> = {
  PodWebhook: [true, 'beta'], KruiseDaemon: [true, 'beta'], DaemonWatchingPod: [true, 'beta'],
  KruisePodReadinessGate: [false, 'alpha'], SidecarSetPatchPodMetadataDefaultsAllowed: [false, 'alpha'],
  ImagePullJobGate: [false, 'alpha'], PreDownloadImageForInPlaceUpdate: [false, 'alpha'],
  PreDownloadImageForDaemonSetUpdate: [false, 'alpha'], ResourceDistributionGate: [false, 'alpha'],
  ResourcesDeletionProtection: [false, 'beta'], EnableExternalCerts: [false, 'alpha'],
  EnableSortSidecarContainerByName: [false, 'alpha'], InPlacePodVerticalScaling: [false, 'alpha'],
  CloneSetShortHash: [false, 'alpha'], CloneSetPartitionRollback: [false, 'alpha'],
  PodUnavailableBudgetDeleteGate: [true, 'beta'], PodUnavailableBudgetUpdateGate: [false, 'alpha'],
  WorkloadSpread: [true, 'beta'], TemplateNoDefaults: [false, 'alpha'], InPlaceUpdateEnvFromMetadata: [true, 'beta'],
  StatefulSetAutoDeletePVC: [true, 'beta'], SidecarTerminator: [false, 'alpha'], PodProbeMarkerGate: [true, 'beta'],
  CloneSetEventHandlerOptimization: [false, 'alpha'], PreparingUpdateAsUpdate: [false, 'alpha'],
  DeletionProtectionForCRDCascadingGate: [false, 'alpha'], EnhancedLivenessProbe: [false, 'alpha'],
  RecreatePodWhenChangeVCTInCloneSetGate: [false, 'alpha'], StatefulSetStartOrdinal: [false, 'alpha'],
  PodIndexLabel: [true, 'beta'], StatefulSetAutoResizePVCGate: [false, 'alpha'],
  ForceDeleteTimeoutExpectationGate: [false, 'alpha'], InPlaceWorkloadVerticalScaling: [false, 'alpha'],
  EnablePodProbeMarkerOnServerless: [false, 'alpha'],
  // Kubernetes' own gate: kruise's --feature-gates is component-base's global gate set, where Kubernetes 1.32
  // registers its gates too; this one decides whether the defaulter fills an image volume's pullPolicy.
  ImageVolume: [false, 'alpha'],
};

/** The gates kruise-ts consults; their defaults follow the OpenKruise Helm chart (which turns ImagePullJobGate on). */
export const GATE_DEFAULTS = {
  PodWebhook: true,
  KruiseDaemon: true,
  ImagePullJobGate: true,
  ResourceDistributionGate: false,
  SidecarSetPatchPodMetadataDefaultsAllowed: false,
  EnableSortSidecarContainerByName: false,
  PreDownloadImageForInPlaceUpdate: false,
  ImageVolume: false,
  PodUnavailableBudgetDeleteGate: true,
  PodUnavailableBudgetUpdateGate: false,
  // Read by PUB only: off, UPDATE in a PUB's protected operations implies RESIZE (spec/availability-guards.md §3.4).
  InPlacePodVerticalScaling: false,
  SidecarTerminator: false,
  PodProbeMarkerGate: true,
  ResourcesDeletionProtection: false,
  DeletionProtectionForCRDCascadingGate: false,
  WorkloadSpread: true,
} as const;
export type FeatureGate = keyof typeof GATE_DEFAULTS;

const implemented = (name: string): name is FeatureGate => name in GATE_DEFAULTS;

/** Upstream's SetDefaultFeatureGates: gates that another gate forces off (or on). */
const FORCED_OFF_BY: Record<string, readonly string[]> = {
  PodWebhook: ['KruisePodReadinessGate', 'PodUnavailableBudgetDeleteGate', 'PodUnavailableBudgetUpdateGate', 'WorkloadSpread',
    'SidecarSetPatchPodMetadataDefaultsAllowed', 'EnhancedLivenessProbe', 'EnablePodProbeMarkerOnServerless'],
  KruiseDaemon: ['PreDownloadImageForInPlaceUpdate', 'PreDownloadImageForDaemonSetUpdate', 'DaemonWatchingPod',
    'InPlaceUpdateEnvFromMetadata', 'PodProbeMarkerGate', 'SidecarTerminator', 'ImagePullJobGate', 'EnhancedLivenessProbe'],
  ResourcesDeletionProtection: ['DeletionProtectionForCRDCascadingGate'],
};

export interface ParsedGates {
  gates: Record<FeatureGate, boolean>;
  /** Upstream gates the value names that kruise-ts has no feature for (`Name=value`): one warning at start. */
  unimplemented: string[];
  problems: string[];
}

/** Parses `Name=true,Other=false` (spaces allowed, AllAlpha/AllBeta as upstream); never throws. */
export function parseFeatureGates(value: string): ParsedGates {
  const problems: string[] = [];
  const set = new Map<string, boolean>();
  for (const part of value.split(',').map((p) => p.trim()).filter(Boolean)) {
    const eq = part.indexOf('=');
    const name = (eq < 0 ? part : part.slice(0, eq)).trim();
    const raw = eq < 0 ? '' : part.slice(eq + 1).trim().toLowerCase();
    if (!(name in UPSTREAM_GATES) && name !== 'AllAlpha' && name !== 'AllBeta') {
      problems.push(`FEATURE_GATES: unrecognized feature gate: ${name} (OpenKruise v1.9 gates: ${Object.keys(UPSTREAM_GATES).join(', ')})`);
      continue;
    }
    if (raw !== 'true' && raw !== 'false') {
      problems.push(`FEATURE_GATES: invalid value of ${name}=${part.slice(eq + 1)}, want true or false`);
      continue;
    }
    set.set(name, raw === 'true');
  }
  const effective = new Map<string, boolean>();
  for (const [name, [def, stage]] of Object.entries(UPSTREAM_GATES)) {
    const all = set.get(stage === 'alpha' ? 'AllAlpha' : 'AllBeta');
    effective.set(name, set.get(name) ?? all ?? def);
  }
  // Explicitly turned on, pre-download implies ImagePullJobGate; then the parents force their dependants off.
  if (effective.get('PreDownloadImageForInPlaceUpdate') || effective.get('PreDownloadImageForDaemonSetUpdate')) effective.set('ImagePullJobGate', true);
  for (const [parent, children] of Object.entries(FORCED_OFF_BY)) {
    if (effective.get(parent) === false) for (const c of children) effective.set(c, false);
  }
  const gates = { ...GATE_DEFAULTS } as Record<FeatureGate, boolean>;
  for (const name of Object.keys(GATE_DEFAULTS) as FeatureGate[]) {
    // kruise-ts's own defaults stand where the user said nothing (upstream's chart sets ImagePullJobGate=true).
    gates[name] = set.has(name) || set.has('AllAlpha') || set.has('AllBeta') ? effective.get(name)! : GATE_DEFAULTS[name];
  }
  // Again over the result: a parent off by kruise-ts's default (or a user's value) forces its children off too.
  for (const [parent, children] of Object.entries(FORCED_OFF_BY)) {
    if (implemented(parent) && !gates[parent]) for (const c of children) if (implemented(c)) gates[c] = false;
  }
  const unimplemented = [...set].filter(([name]) => name in UPSTREAM_GATES && !implemented(name)).map(([n, on]) => `${n}=${on}`);
  return { gates, unimplemented, problems };
}
