// SidecarSet patchPodMetadata rules (spec/webhooks.md §3 step 11): the cluster whitelist from ConfigMap
// kruise-configuration / SidecarSet_PatchPodMetadata_WhiteList, and the per-entry checks.
import type { LabelSelector } from '../../api/meta.js';
import type { SidecarSet } from '../../api/sidecarset.js';
import type { Violation } from '../../errors.js';
import { matchesLabelSelector } from '../label-selector.js';
import { labelSelectorConversionError, validateLabelName } from './selector-validation.js';

export const PatchMetadataWhitelistConfigMap = 'kruise-configuration';
export const PatchMetadataWhitelistKey = 'SidecarSet_PatchPodMetadata_WhiteList';

interface WhitelistRule {
  selector?: LabelSelector;
  allowedAnnotationKeyExprs?: string[];
}

const field = 'spec.patchPodMetadata';
const totalAnnotationSizeLimit = 256 * 1024;

/**
 * Why the whitelist refuses this SidecarSet's patches, or undefined if it allows them. `raw` is the ConfigMap value
 * (undefined when the ConfigMap or key is absent). Regexes are JS, not Go RE2; both are unanchored "contains" matches.
 */
export function patchMetadataWhitelistError(obj: SidecarSet, raw: string | undefined, defaultsAllowed: boolean): string | undefined {
  const patches = obj.spec?.patchPodMetadata ?? [];
  if (patches.length === 0) return undefined;
  if (raw === undefined) return defaultsAllowed ? undefined : 'SidecarSet patch metadata whitelist not found';
  let rules: WhitelistRule[];
  try {
    const parsed = JSON.parse(raw) as { rules?: WhitelistRule[] } | null;
    rules = parsed?.rules ?? [];
  } catch (err) {
    return `failed to unmarshal ${PatchMetadataWhitelistKey}: ${(err as Error).message}`;
  }
  const labels = obj.metadata?.labels ?? {};
  const exprs: RegExp[] = [];
  for (const rule of rules) {
    if (rule.selector) {
      const convErr = labelSelectorConversionError(rule.selector);
      if (convErr) return convErr;
      // Cannot throw LabelSelectorError: the conversion check above already refused everything it would.
      if (!matchesLabelSelector(rule.selector, labels)) continue;
    }
    for (const expr of rule.allowedAnnotationKeyExprs ?? []) {
      try {
        exprs.push(new RegExp(expr));
      } catch (err) {
        return `error parsing regexp: ${(err as Error).message}`;
      }
    }
  }
  if (exprs.length === 0) return defaultsAllowed ? undefined : 'sidecarSet patch metadata annotation is not allowed';
  for (const patch of patches) {
    for (const key of Object.keys(patch.annotations ?? {}).sort()) {
      if (!exprs.some((re) => re.test(key))) return `sidecarSet patch metadata annotation(${key}) is not allowed`;
    }
  }
  return undefined;
}

export function validatePatchPodMetadata(obj: SidecarSet, raw: string | undefined, defaultsAllowed: boolean): Violation[] {
  const patches = obj.spec?.patchPodMetadata ?? [];
  if (patches.length === 0) return [];
  const out: Violation[] = [];
  const whitelistErr = patchMetadataWhitelistError(obj, raw, defaultsAllowed);
  if (whitelistErr) out.push({ field, type: 'Required value', detail: whitelistErr });
  const seen = new Set<string>();
  for (const patch of patches) {
    const keys = Object.keys(patch.annotations ?? {}).sort();
    if (keys.length === 0) out.push({ field, type: 'Required value', detail: 'no annotations defined for SidecarSet' });
    else out.push(...validateAnnotations(patch.annotations!, field));
    if (!patch.patchPolicy) out.push({ field, type: 'Required value', detail: 'no patchPolicy defined for patchPodMetadata' });
    for (const k of keys) {
      if (seen.has(k)) out.push({ field, type: 'Invalid value', value: k, detail: `patch annotation[${k}] already exist` });
      seen.add(k);
    }
  }
  return out;
}

/** ObjectMeta annotation rules: keys are qualified names (checked lower-cased), total size ≤ 256 KiB. */
export function validateAnnotations(annotations: Record<string, string>, f: string): Violation[] {
  const out: Violation[] = [];
  let size = 0;
  for (const [k, v] of Object.entries(annotations)) {
    out.push(...validateLabelName(k.toLowerCase(), f));
    size += Buffer.byteLength(k) + Buffer.byteLength(v);
  }
  if (size > totalAnnotationSizeLimit) {
    out.push({ field: f, type: 'Too long', detail: `must have at most ${totalAnnotationSizeLimit} bytes` });
  }
  return out;
}
