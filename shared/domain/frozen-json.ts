// JSON values frozen all the way down, whose JSON text is then computed once and reused. Injection hands the same
// sidecar containers and volumes (built once per SidecarSet generation, see inject/build-sidecars.ts) to every pod it
// mutates; the patch encoder (webhook/admission/patch.ts) then asks for their text instead of serialising kilobytes of
// identical JSON per review. Only a value that provably cannot change may have its text remembered: hence the freeze.

/** Objects frozen by deepFreeze whose every descendant is a plain object, an array or a primitive. */
const frozenPlain = new WeakSet<object>();
const texts = new WeakMap<object, string>();

function isPlainContainer(v: object): boolean {
  if (Array.isArray(v)) return true;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/**
 * Freezes `value` and everything it holds, in place, and returns it. Plain JSON data (objects, arrays, primitives) is
 * also remembered as such, so jsonText may keep its text; anything else (a Date, a Map: state that freezing does not
 * fix) is frozen but never remembered.
 */
export function deepFreeze<T>(value: T): T {
  freeze(value);
  return value;
}

/** Freezes `v` and below; true when all of it is plain JSON data. */
function freeze(v: unknown): boolean {
  if (typeof v !== 'object' || v === null) return typeof v !== 'function' && typeof v !== 'symbol' && typeof v !== 'bigint';
  if (frozenPlain.has(v)) return true;
  let plain = isPlainContainer(v);
  for (const key of Reflect.ownKeys(v)) {
    // Symbol keys and accessors are not JSON data; the value of an accessor could change under a frozen object.
    const d = Object.getOwnPropertyDescriptor(v, key)!;
    if (typeof key === 'symbol' || !('value' in d)) plain = false;
    if ('value' in d && !freeze(d.value)) plain = false;
  }
  Object.freeze(v);
  if (plain) frozenPlain.add(v);
  return plain;
}

/** Whether `v` was deep-frozen as plain JSON data (and so can never change). */
export const isFrozenJson = (v: unknown): boolean => typeof v === 'object' && v !== null && frozenPlain.has(v);

// Long strings whose JSON their maker rendered along with them (hash-annotations.ts: kilobytes of escaped quotes per
// review). Strings are immutable, so a remembered pair can never go stale; the few most recent are kept.
const LONG = 256;
const strings: { value: string; json: string }[] = [];

/** Remembers `json` as JSON.stringify(value) for a long string `value` that is about to be encoded. */
export function rememberStringJson(value: string, json: string): void {
  if (value.length < LONG) return;
  // Pods created in the same second hand the same string again.
  for (const s of strings) if (s.value === value) return;
  if (strings.length >= 8) strings.shift();
  strings.push({ value, json });
}

/** JSON.stringify(value), computed once per deep-frozen plain object or array and remembered. */
export function jsonText(value: unknown): string | undefined {
  if (typeof value === 'string' && value.length >= LONG) {
    for (const s of strings) if (s.value === value) return s.json;
    return JSON.stringify(value);
  }
  if (typeof value !== 'object' || value === null || !frozenPlain.has(value)) return JSON.stringify(value);
  let t = texts.get(value);
  if (t === undefined) texts.set(value, (t = JSON.stringify(value)));
  return t;
}
