// A generic ephemeral volume's claim template (k8s core validation validateEphemeralVolumeSource →
// ValidatePersistentVolumeClaimTemplate). Covered: template required, metadata labels/annotations and the
// fields a template may not set, access modes, the storage request, storageClassName, volumeMode, selector.
// Not covered: dataSource/dataSourceRef contents and volumeAttributesClassName.
import type { Violation } from '../../../errors.js';
import { compareQuantityValues, parseQuantityValue } from '../../quantity.js';
import { forbidden, invalid, invalidEach, list, notSupported, obj, required, str, type Json } from '../field-errors.js';
import { nameIsDNSSubdomain } from '../names.js';
import { validateAnnotations } from '../patch-metadata.js';
import { validateLabels, validateLabelSelector } from '../selector-validation.js';
import { shownQuantity } from './sources.js';

const accessModes = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod'];
const volumeModes = ['Block', 'Filesystem'];
const templateMetaFields = new Set(['annotations', 'labels']);

export function validateEphemeral(s: Json, f: string): Violation[] {
  const template = obj(s.volumeClaimTemplate);
  if (!template) return [required(`${f}.volumeClaimTemplate`)];
  const tf = `${f}.volumeClaimTemplate`;
  const meta = obj(template.metadata) ?? {};
  const out = [...validateAnnotations(obj(meta.annotations) ?? {}, `${tf}.metadata.annotations`), ...validateLabels(obj(meta.labels), `${tf}.metadata.labels`)];
  for (const k of Object.keys(meta).sort()) if (!templateMetaFields.has(k) && meta[k] != null) out.push(forbidden(`${tf}.metadata.${k}`, 'cannot be set'));
  out.push(...validateClaimSpec(obj(template.spec) ?? {}, `${tf}.spec`));
  return out;
}

function validateClaimSpec(spec: Json, f: string): Violation[] {
  const out: Violation[] = [];
  const modes = list(spec.accessModes).map(str);
  if (modes.length === 0) out.push(required(`${f}.accessModes`, 'at least 1 access mode is required'));
  if (obj(spec.selector)) out.push(...validateLabelSelector(obj(spec.selector) as never, `${f}.selector`));
  let rwop = false;
  let other = false;
  for (const m of modes) {
    if (!accessModes.includes(m)) out.push(notSupported(`${f}.accessModes`, m, accessModes));
    if (m === 'ReadWriteOncePod') rwop = true;
    else if (accessModes.includes(m)) other = true;
  }
  if (rwop && other) out.push(forbidden(`${f}.accessModes`, 'may not use ReadWriteOncePod with other access modes'));
  const storage = obj(obj(spec.resources)?.requests)?.storage;
  const sf = `${f}.resources[storage]`;
  if (storage === undefined || storage === null) out.push(required(sf));
  else if (isNonPositive(storage)) out.push(invalid(sf, shownQuantity(storage), 'must be greater than zero'));
  const cls = str(spec.storageClassName);
  if (cls !== '') out.push(...invalidEach(`${f}.storageClassName`, cls, nameIsDNSSubdomain(cls, false)));
  if (spec.volumeMode != null && !volumeModes.includes(str(spec.volumeMode))) out.push(notSupported(`${f}.volumeMode`, str(spec.volumeMode), volumeModes));
  return out;
}

function isNonPositive(q: unknown): boolean {
  try {
    return compareQuantityValues(parseQuantityValue(q as string), { unscaled: 0n, scale: 0 }) <= 0;
  } catch {
    return false;
  }
}
