// transferEnv[].sourceContainerNameFrom.fieldRef rules (spec/webhooks.md §3 step 9): the same checks k8s applies to a
// downward-API fieldRef, restricted to the two subscripted paths the injector can resolve.
import type { ObjectFieldSelector } from '../../api/meta.js';
import type { Violation } from '../../errors.js';
import { isQualifiedName } from './names.js';

const subscriptRe = /^(metadata\.(?:labels|annotations))\['(.*)'\]$/;

export function validateTransferEnvFieldRef(ref: ObjectFieldSelector, f: string): Violation[] {
  if (!ref.apiVersion) return [{ field: `${f}.apiVersion`, type: 'Required value', detail: '' }];
  if (!ref.fieldPath) return [{ field: `${f}.fieldPath`, type: 'Required value', detail: '' }];
  const field = `${f}.fieldPath`;
  if (ref.apiVersion !== 'v1') {
    return [{ field, type: 'Invalid value', value: ref.fieldPath, detail: `error converting fieldPath: unsupported pod version: ${ref.apiVersion}` }];
  }
  const m = subscriptRe.exec(ref.fieldPath);
  if (!m) return [{ field, type: 'Invalid value', value: ref.fieldPath, detail: 'error converting fieldPath: field label not supported' }];
  const key = m[1] === 'metadata.annotations' ? m[2]!.toLowerCase() : m[2]!;
  return isQualifiedName(key).map((detail) => ({ field, type: 'Invalid value' as const, value: ref.fieldPath, detail }));
}
