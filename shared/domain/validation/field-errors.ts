// Constructors for Kubernetes' field.Error kinds (apimachinery util/validation/field), so the pod-spec rules read like
// their upstream counterparts and render the same text through formatViolation.
import type { Violation } from '../../errors.js';

/** Loose JSON: the validators walk decoded admission objects, whose shape the decoder has only type-checked. */
export type Json = Record<string, any>;

export const required = (field: string, detail = ''): Violation => ({ field, type: 'Required value', detail });
export const forbidden = (field: string, detail: string): Violation => ({ field, type: 'Forbidden', detail });
export const invalid = (field: string, value: unknown, detail: string): Violation => ({ field, type: 'Invalid value', value, detail });
export const duplicate = (field: string, value: unknown): Violation => ({ field, type: 'Duplicate value', value, detail: '' });
export const notFound = (field: string, value: unknown, detail = ''): Violation => ({ field, type: 'Not found', value, detail });

/** field.NotSupported: the detail lists the accepted values, each quoted, in the order given. */
export function notSupported(field: string, value: unknown, supported: readonly string[]): Violation {
  const detail = supported.length > 0 ? `supported values: ${supported.map((s) => JSON.stringify(s)).join(', ')}` : '';
  return { field, type: 'Unsupported value', value, detail };
}

/** field.TooLong with a known limit; the value itself is never shown. */
export function tooLong(field: string, max: number): Violation {
  return { field, type: 'Too long', detail: `may not be more than ${max} ${max === 1 ? 'byte' : 'bytes'}` };
}

/** One Invalid error per message, as upstream turns a []string of syntax problems into an ErrorList. */
export const invalidEach = (field: string, value: unknown, msgs: readonly string[]): Violation[] => msgs.map((m) => invalid(field, value, m));

export const inclusiveRangeError = (lo: number, hi: number): string => `must be between ${lo} and ${hi}, inclusive`;

/** Go's `len(s)`: UTF-8 bytes, not UTF-16 code units. */
export const byteLength = (s: string): number => Buffer.byteLength(s, 'utf8');

export const isSet = (v: unknown): boolean => v !== undefined && v !== null;
export const str = (v: unknown): string => (typeof v === 'string' ? v : '');
export const num = (v: unknown): number => (typeof v === 'number' ? v : 0);
export const list = (v: unknown): any[] => (Array.isArray(v) ? v : []);
export const obj = (v: unknown): Json | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : undefined);
