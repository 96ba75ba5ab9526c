// Coded errors shared by all deployables. Admission code turns these into AdmissionResponses; nothing else
// should need to inspect error messages.

/** A request we refuse on purpose. `code` is the HTTP-style status put in the AdmissionResponse. */
export class AdmissionDeniedError extends Error {
  readonly code: 400 | 403 | 422 | 500;
  constructor(message: string, code: 400 | 403 | 422 | 500 = 403, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'AdmissionDeniedError';
    this.code = code;
  }
}

/** One field-level problem, rendered like Kubernetes' field.Error: "<field>: <type>: <detail>". */
export interface Violation {
  field: string;
  type: 'Required value' | 'Invalid value' | 'Duplicate value' | 'Forbidden' | 'Not found' | 'Unsupported value' | 'Too long' | 'Too many' | 'Internal error';
  /** The offending value, rendered Go-style after "Invalid value: " (omitted for Required/Forbidden). */
  value?: unknown;
  /** The value as Go's %#v prints it (maps, structs), used verbatim instead of rendering `value`. */
  goValue?: string;
  detail: string;
}

export function formatViolation(v: Violation): string {
  const shown = v.type === 'Invalid value' || v.type === 'Unsupported value' || v.type === 'Duplicate value' || v.type === 'Not found' || v.type === 'Too many';
  // Mirrors field.Error.ErrorBody: "<type>[: <value>][: <detail>]".
  const value = shown ? `: ${v.goValue ?? (v.value === undefined ? 'null' : JSON.stringify(v.value))}` : '';
  return `${v.field}: ${v.type}${value}${v.detail ? `: ${v.detail}` : ''}`;
}

/** Kubernetes' ErrorList aggregate: one error bare, several as "[e1, e2]". */
export function formatViolations(vs: Violation[]): string {
  const parts = vs.map(formatViolation);
  return parts.length === 1 ? parts[0]! : `[${parts.join(', ')}]`;
}
