// Kubernetes LabelSelector validation (metav1 validation.ValidateLabelSelector) plus the selector→requirements
// conversion check (metav1.LabelSelectorAsSelector), which kruise runs as a separate step and so reports twice.
import type { LabelSelector } from '../../api/meta.js';
import type { Violation } from '../../errors.js';
import { isQualifiedName, isValidLabelValue } from './names.js';

const operators = new Set(['In', 'NotIn', 'Exists', 'DoesNotExist']);

export function validateLabelName(key: string, field: string): Violation[] {
  return isQualifiedName(key).map((detail) => ({ field, type: 'Invalid value', value: key, detail }));
}

export function validateLabels(labels: Record<string, string> | undefined, field: string): Violation[] {
  const out: Violation[] = [];
  for (const [k, v] of Object.entries(labels ?? {})) {
    out.push(...validateLabelName(k, field));
    for (const detail of isValidLabelValue(v)) out.push({ field, type: 'Invalid value', value: v, detail });
  }
  return out;
}

/** `allowInvalidValues`: LabelSelectorValidationOptions.AllowInvalidLabelValueInSelector (expression values unchecked). */
export function validateLabelSelector(selector: LabelSelector | undefined, field: string, allowInvalidValues = false): Violation[] {
  if (!selector) return [];
  const out = validateLabels(selector.matchLabels, `${field}.matchLabels`);
  (selector.matchExpressions ?? []).forEach((req, i) => {
    const f = `${field}.matchExpressions[${i}]`;
    const values = req.values ?? [];
    if (req.operator === 'In' || req.operator === 'NotIn') {
      if (values.length === 0) {
        out.push({ field: `${f}.values`, type: 'Required value', detail: "must be specified when `operator` is 'In' or 'NotIn'" });
      }
    } else if (req.operator === 'Exists' || req.operator === 'DoesNotExist') {
      if (values.length > 0) {
        out.push({ field: `${f}.values`, type: 'Forbidden', detail: "may not be specified when `operator` is 'Exists' or 'DoesNotExist'" });
      }
    } else {
      out.push({ field: `${f}.operator`, type: 'Invalid value', value: req.operator, detail: 'not a valid selector operator' });
    }
    out.push(...validateLabelName(req.key, `${f}.key`));
    if (!allowInvalidValues) values.forEach((v, j) => {
      for (const detail of isValidLabelValue(v)) out.push({ field: `${f}.values[${j}]`, type: 'Invalid value', value: v, detail });
    });
  });
  return out;
}

/**
 * The error metav1.LabelSelectorAsSelector would return (first problem only, as Go stops at the first), or
 * undefined when the selector converts.
 */
export function labelSelectorConversionError(selector: LabelSelector): string | undefined {
  for (const req of selector.matchExpressions ?? []) {
    if (!operators.has(req.operator)) return `"${req.operator}" is not a valid label selector operator`;
    const err = requirementError(req.key, req.operator, req.values ?? []);
    if (err) return err;
  }
  for (const k of Object.keys(selector.matchLabels ?? {}).sort()) {
    const err = requirementError(k, '=', [selector.matchLabels![k]!]);
    if (err) return err;
  }
  return undefined;
}

function requirementError(key: string, op: string, values: string[]): string | undefined {
  const keyErrs = isQualifiedName(key);
  if (keyErrs.length > 0) return `key: Invalid value: ${JSON.stringify(key)}: ${keyErrs.join('; ')}`;
  if ((op === 'In' || op === 'NotIn') && values.length === 0) {
    return 'values: Invalid value: null: for \'in\', \'notin\' operators, values set can\'t be empty';
  }
  if ((op === 'Exists' || op === 'DoesNotExist') && values.length > 0) {
    return 'values: Invalid value: null: values set must be empty for exists and does not exist';
  }
  for (let i = 0; i < values.length; i++) {
    const errs = isValidLabelValue(values[i]!);
    if (errs.length > 0) return `values[${i}][${key}]: Invalid value: ${JSON.stringify(values[i])}: ${errs.join('; ')}`;
  }
  return undefined;
}
