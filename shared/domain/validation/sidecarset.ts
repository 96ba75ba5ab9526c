// SidecarSet validating webhook rules (spec/webhooks.md §3). Runs on the *defaulted* object. Phase A collects every
// field problem; Phase B (conflicts with other SidecarSets) runs only when Phase A found none.
import type { IntOrString, LabelSelector, Volume } from '../../api/meta.js';
import type { SidecarContainer, SidecarSet, SidecarSetUpdateStrategy } from '../../api/sidecarset.js';
import type { Violation } from '../../errors.js';
import { validateClusterObjectMeta } from './object-meta.js';
import { validatePatchPodMetadata } from './patch-metadata.js';
import { validatePodSpecSubset } from './pod-spec.js';
import { labelSelectorConversionError, validateLabelSelector } from './selector-validation.js';
import { validateSidecarSetCanary } from './sidecarset-canary.js';
import { validateSidecarSetConflicts, type NamespaceLabels } from './sidecarset-conflicts.js';
import { validateContainerResourcesPolicy, validateInitContainerResourcesPolicy } from './sidecarset-resources-policy.js';
import { validateTransferEnvFieldRef } from './transfer-env.js';

export interface RevisionRef {
  sidecarSetName: string;
  revisionName?: string;
  customVersion?: string;
}

export interface SidecarSetValidationContext {
  /** All SidecarSets currently stored (the object itself may be among them; it is skipped by name). */
  sidecarSets: readonly SidecarSet[];
  namespaceLabels: NamespaceLabels;
  revisionExists(ref: RevisionRef): boolean;
  /** Raw JSON of ConfigMap kruise-configuration key SidecarSet_PatchPodMetadata_WhiteList; undefined if absent. */
  patchMetadataWhitelist: string | undefined;
  /** Feature gate SidecarSetPatchPodMetadataDefaultsAllowed. */
  patchMetadataDefaultsAllowed: boolean;
}

export function validateSidecarSet(obj: SidecarSet, old: SidecarSet | undefined, ctx: SidecarSetValidationContext): Violation[] {
  const errs = [...validateSidecarSetMetadata(obj), ...validateSidecarSetCanary(obj, old, ctx.sidecarSets), ...validateSidecarSetSpec(obj, ctx)];
  if (old) errs.push(...validateSidecarSetUpdate(obj, old));
  if (errs.length > 0) return errs;
  return validateSidecarSetConflicts(obj, ctx.sidecarSets, ctx.namespaceLabels);
}

const nameRe = /^[a-zA-Z0-9-]+$/;

export function validateSidecarSetMetadata(obj: SidecarSet): Violation[] {
  return validateClusterObjectMeta(obj.metadata, (name) => {
    const errs: string[] = [];
    if (!nameRe.test(name)) {
      errs.push("sidecarset name must consist of alphanumeric characters or '-' (e.g. 'example-com', regex used for validation is '[a-zA-Z0-9\\-]+')");
    }
    if (name.length > 63) errs.push('must be no more than 63 characters');
    return errs;
  });
}

/** kruise's validateSelector: k8s rules + non-empty + convertible (a bad value is therefore reported twice). */
export function validateSidecarSetSelector(selector: LabelSelector, field: string): Violation[] {
  const out = validateLabelSelector(selector, field);
  if (Object.keys(selector.matchLabels ?? {}).length + (selector.matchExpressions ?? []).length === 0) {
    out.push({ field, type: 'Invalid value', value: selector, detail: 'empty selector is not valid for sidecarset.' });
  }
  const convErr = labelSelectorConversionError(selector);
  if (convErr) out.push({ field, type: 'Invalid value', value: selector, detail: convErr });
  return out;
}

export function validateSidecarSetSpec(obj: SidecarSet, ctx: Pick<SidecarSetValidationContext, 'revisionExists' | 'patchMetadataWhitelist' | 'patchMetadataDefaultsAllowed'>): Violation[] {
  const spec = obj.spec ?? {};
  const out: Violation[] = [];
  const strategy = spec.updateStrategy ?? {};
  // OpenKruise refuses RollingUpdate for every native sidecar ("The initContainer in-place upgrade is not currently
  // supported."); kruise-ts updates them in place (docs/compatibility.md) but, as upstream, never hot-upgrades them.
  for (const c of spec.initContainers ?? []) {
    if (c.restartPolicy === 'Always' && c.upgradeStrategy?.upgradeType === 'HotUpgrade' && strategy.type === 'RollingUpdate') {
      out.push({ field: 'spec.updateStrategy', type: 'Required value', detail: 'The initContainer hot upgrade is not supported.' });
    }
  }
  if (!spec.selector) out.push({ field: 'spec.selector', type: 'Required value', detail: 'no selector defined for SidecarSet' });
  else out.push(...validateSidecarSetSelector(spec.selector, 'spec.selector'));

  if (spec.namespace && spec.namespaceSelector) {
    out.push({ field: 'spec.namespace, namespaceSelector', type: 'Required value', detail: 'namespace and namespaceSelector are mutually exclusive' });
  } else if (spec.namespaceSelector) {
    out.push(...validateSidecarSetSelector(spec.namespaceSelector, 'spec.namespaceSelector'));
  }
  out.push(...validateInjectRevision(obj, ctx.revisionExists));
  if (strategy.type === 'RollingUpdate') out.push(...validateUpdateStrategy(strategy, 'spec.updateStrategy'));

  const inits = spec.initContainers ?? [];
  const containers = spec.containers ?? [];
  if (inits.length === 0 && containers.length === 0) {
    out.push({ field: 'spec', type: 'Required value', detail: 'no initContainer or container defined for SidecarSet' });
  } else {
    out.push(...validateSidecarContainers(inits, containers, spec.volumes ?? []));
  }
  out.push(...validatePatchPodMetadata(obj, ctx.patchMetadataWhitelist, ctx.patchMetadataDefaultsAllowed));
  return out;
}

function validateInjectRevision(obj: SidecarSet, revisionExists: SidecarSetValidationContext['revisionExists']): Violation[] {
  const revision = obj.spec?.injectionStrategy?.revision;
  if (!revision) return [];
  const field = 'spec.injectionStrategy.revision';
  const out: Violation[] = [];
  if (revision.revisionName == null && revision.customVersion == null) {
    out.push({ field, type: 'Invalid value', value: revision, detail: 'revisionName and customVersion cannot be empty simultaneously' });
  } else {
    const ref: RevisionRef = { sidecarSetName: obj.metadata?.name ?? '' };
    if (revision.revisionName != null) ref.revisionName = revision.revisionName;
    if (revision.customVersion != null) ref.customVersion = revision.customVersion;
    if (!revisionExists(ref)) {
      const what = ref.revisionName != null ? `controllerrevisions.apps "${ref.revisionName}" not found` : `no revision with custom version ${ref.customVersion}`;
      out.push({ field, type: 'Invalid value', value: null, detail: `Cannot find specific ControllerRevision, err: ${what}` });
    }
  }
  const policy = revision.policy ?? '';
  if (policy !== '' && policy !== 'Always' && policy !== 'Partial') {
    out.push({ field: `${field}.policy`, type: 'Invalid value', value: policy, detail: `Invalid policy ${policy}, supported: [Always, Partial]` });
  }
  return out;
}

const percentRe = /^[0-9]+%$/;

function validateIntOrPercent(v: IntOrString, field: string): Violation[] {
  if (typeof v === 'string') {
    return percentRe.test(v) ? [] : [{ field, type: 'Invalid value', value: v, detail: "must be an integer or percentage (e.g '5%')" }];
  }
  return v < 0 ? [{ field, type: 'Invalid value', value: v, detail: 'must be greater than or equal to 0' }] : [];
}

function validateUpdateStrategy(s: SidecarSetUpdateStrategy, field: string): Violation[] {
  const out: Violation[] = [];
  const partitionSet = typeof s.partition === 'string' || (typeof s.partition === 'number' && s.partition !== 0);
  if (partitionSet && s.selector) {
    out.push({ field, type: 'Invalid value', value: s, detail: 'Partition and Selector cannot be used together' });
  }
  if (s.selector) out.push(...validateSidecarSetSelector(s.selector, `${field}.selector`));
  if (s.partition !== undefined && s.partition !== null) out.push(...validateIntOrPercent(s.partition, `${field}.partition`));
  if (s.maxUnavailable !== undefined && s.maxUnavailable !== null) out.push(...validateIntOrPercent(s.maxUnavailable, `${field}.maxUnavailable`));
  const prio = s.priorityStrategy;
  if (prio) {
    const pf = `${field}.priorityStrategy`;
    const weights = prio.weightPriority ?? [];
    const orders = prio.orderPriority ?? [];
    if (weights.length > 0 && orders.length > 0) {
      out.push({ field: pf, type: 'Required value', detail: 'only one of weightPriority and orderPriority can be used' });
    }
    for (const w of weights) {
      if (!(w.weight >= 0 && w.weight <= 100)) out.push({ field: pf, type: 'Required value', detail: 'weight must be valid number in the range 1-100' });
      const sel = w.matchSelector;
      if (!sel || Object.keys(sel.matchLabels ?? {}).length + (sel.matchExpressions ?? []).length === 0) {
        out.push({ field: pf, type: 'Required value', detail: 'selector can not be empty' });
      } else {
        const convErr = labelSelectorConversionError(sel);
        if (convErr) out.push({ field: pf, type: 'Required value', detail: convErr });
      }
    }
    for (const o of orders) if (!o.orderedKey) out.push({ field: pf, type: 'Required value', detail: 'order key can not be empty' });
  }
  const seen = new Set<string>();
  for (const term of s.scatterStrategy ?? []) {
    const sf = `${field}.scatterStrategy`;
    if (!term.key) out.push({ field: sf, type: 'Required value', detail: 'key should not be empty' });
    const id = `${term.key}:${term.value}`;
    if (seen.has(id)) out.push({ field: sf, type: 'Required value', detail: `duplicated key=${term.key} value=${term.value}` });
    seen.add(id);
  }
  return out;
}

function validateSidecarContainers(inits: SidecarContainer[], containers: SidecarContainer[], volumes: Volume[]): Violation[] {
  const out: Violation[] = inits.flatMap(validateInitContainerResourcesPolicy);
  containers.forEach((c, i) => {
    if (c.podInjectPolicy !== 'BeforeAppContainer' && c.podInjectPolicy !== 'AfterAppContainer') {
      out.push({ field: 'spec.container.podInjectPolicy', type: 'Invalid value', value: c.podInjectPolicy ?? '', detail: 'unsupported pod inject policy' });
    }
    const share = c.shareVolumePolicy?.type;
    if (share !== 'enabled' && share !== 'disabled') {
      out.push({ field: 'spec.container.shareVolumePolicy', type: 'Invalid value', value: c.shareVolumePolicy ?? {}, detail: 'unsupported share volume policy' });
    }
    (c.transferEnv ?? []).forEach((t, j) => {
      const ref = t.sourceContainerNameFrom?.fieldRef;
      if (ref) out.push(...validateTransferEnvFieldRef(ref, `spec.containers[${i}].transferEnv[${j}].sourceContainerNameFrom.fieldRef`));
    });
    out.push(...validateContainerResourcesPolicy(c, i));
  });
  const fakeContainers = containers.length > 0 ? containers : [{ name: 'test', image: 'busybox', imagePullPolicy: 'IfNotPresent', terminationMessagePolicy: 'File' }];
  out.push(...validatePodSpecSubset({ initContainers: inits, containers: fakeContainers, volumes }));
  return out;
}

/** UPDATE-only rules: no new container names, and a set upgradeType may not change. */
export function validateSidecarSetUpdate(obj: SidecarSet, old: SidecarSet): Violation[] {
  const out: Violation[] = [];
  const oldTypes = new Map((old.spec?.containers ?? []).map((c) => [c.name, c.upgradeStrategy?.upgradeType ?? '']));
  for (const c of obj.spec?.containers ?? []) {
    if (!oldTypes.has(c.name)) {
      out.push({ field: 'spec.containers.name', type: 'Invalid value', value: c.name, detail: `container ${c.name} is not found` });
      continue;
    }
    const before = oldTypes.get(c.name)!;
    if (before !== '' && (c.upgradeStrategy?.upgradeType ?? '') !== before) {
      out.push({ field: 'spec.containers.upgradeStrategy.upgradeType', type: 'Invalid value', value: c.name, detail: `container ${c.name} upgradeType is immutable` });
    }
  }
  return out;
}
