// Path-shape rules shared by volume mounts, volume sources and seccomp profiles (k8s core validation
// validateLocalDescendingPath / validatePathNoBacksteps / ValidateLocalNonReservedPath).
import type { Violation } from '../../errors.js';
import { invalid } from './field-errors.js';

/** Go's path.IsAbs: only a leading '/' counts. */
export const isAbsPath = (p: string): boolean => p.startsWith('/');

/** One error at most, even for `../../..`. Backslashes are not separators: the apiserver runs on Linux. */
export function validatePathNoBacksteps(target: string, field: string): Violation[] {
  return target.split('/').includes('..') ? [invalid(field, target, "must not contain '..'")] : [];
}

export function validateLocalDescendingPath(target: string, field: string): Violation[] {
  const out: Violation[] = [];
  if (isAbsPath(target)) out.push(invalid(field, target, 'must be a relative path'));
  out.push(...validatePathNoBacksteps(target, field));
  return out;
}

export function validateLocalNonReservedPath(target: string, field: string): Violation[] {
  const out = validateLocalDescendingPath(target, field);
  if (target.startsWith('..') && !target.startsWith('../')) out.push(invalid(field, target, "must not start with '..'"));
  return out;
}
