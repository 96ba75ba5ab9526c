// SidecarSet patchPodMetadata applied to the pod's annotations (spec/webhooks.md §2.4).
import type { SidecarSet } from '../../api/sidecarset.js';
import { AdmissionDeniedError } from '../../errors.js';
import { mergePatch, MergePatchError } from './merge-patch.js';

/**
 * Returns the annotations after every SidecarSet's patchPodMetadata (`annotations` itself when nothing changes, else a copy), in SidecarSet order then entry order:
 * Retain ("" too) sets only absent keys, Overwrite always sets, MergePatchJson merges into a non-empty existing value
 * (else sets it verbatim). Invalid JSON on either side of a merge is refused: upstream fails the pod creation too.
 */
export function applyPatchPodMetadata(annotations: Record<string, string>, sets: SidecarSet[], podRef: string): Record<string, string> {
  // Copied on the first write only: a pod's annotations may be large, and most SidecarSets patch none.
  let out = annotations;
  const set = (key: string, value: string) => {
    if (out === annotations) out = { ...annotations };
    out[key] = value;
  };
  for (const s of sets) {
    for (const patch of s.spec?.patchPodMetadata ?? []) {
      for (const [key, value] of Object.entries(patch.annotations ?? {})) {
        const policy = patch.patchPolicy ?? '';
        if (policy === 'Overwrite') set(key, value);
        else if (policy === 'MergePatchJson') set(key, out[key] ? mergeOne(out[key]!, value, key, s, podRef) : value);
        else if (policy === 'Retain' || policy === '') {
          if (!Object.hasOwn(out, key)) set(key, value);
        }
      }
    }
  }
  return out;
}

function mergeOne(current: string, patch: string, key: string, set: SidecarSet, podRef: string): string {
  try {
    return mergePatch(current, patch);
  } catch (err) {
    if (!(err instanceof MergePatchError)) throw err;
    const side = err.which === 'document' ? `pod(${podRef}) annotation ${key} is not a JSON object` : `its value for ${key} is not a JSON object`;
    throw new AdmissionDeniedError(
      `sidecarset ${set.metadata?.name} patchPodMetadata MergePatchJson failed (${err.message}): ${side}; fix the JSON or use patchPolicy Overwrite`,
      400,
      { cause: err },
    );
  }
}
