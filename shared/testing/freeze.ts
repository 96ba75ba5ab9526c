// Deep Object.freeze for tests: hand a frozen input to code that promises not to modify it, and any write below the
// top throws (ESM code is strict mode) instead of silently changing the caller's object.
export function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  return Object.freeze(value);
}
