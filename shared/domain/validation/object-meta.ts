// apimachinery ValidateObjectMeta for cluster-scoped kinds: name via the kind's name rule, no namespace, valid
// labels and annotations.
import type { ObjectMeta } from '../../api/meta.js';
import type { Violation } from '../../errors.js';
import { validateAnnotations } from './patch-metadata.js';
import { validateLabels } from './selector-validation.js';

export function validateClusterObjectMeta(meta: ObjectMeta | undefined, nameErrors: (name: string) => string[]): Violation[] {
  const m = meta ?? {};
  const out: Violation[] = [];
  const name = m.name ?? '';
  if (name === '' && !m.generateName) {
    out.push({ field: 'metadata.name', type: 'Required value', detail: 'name or generateName is required' });
  } else if (name !== '') {
    for (const detail of nameErrors(name)) out.push({ field: 'metadata.name', type: 'Invalid value', value: name, detail });
  }
  if (m.namespace) out.push({ field: 'metadata.namespace', type: 'Forbidden', detail: 'not allowed on this type' });
  out.push(...validateLabels(m.labels, 'metadata.labels'));
  out.push(...validateAnnotations(m.annotations ?? {}, 'metadata.annotations'));
  return out;
}
