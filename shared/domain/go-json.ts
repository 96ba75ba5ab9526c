// A Go `encoding/json` emulator for values that Go would first decode into typed structs and then json.Marshal.
// Hash compatibility with OpenKruise (spec/webhooks.md §1.5) depends on reproducing that round trip byte for byte:
// struct fields in declaration order, omitempty, unknown fields dropped, map keys sorted, Go's string escaping.
import { canonicalQuantity, QuantityParseError } from './quantity.js';

/**
 * A Go type, written as Go spells it: `string`, `bool`, `int32`, `int64`, `Quantity`, `IntOrString`, `*T`,
 * `Time` (metav1.Time), `[]T`, `map[string]T`, or the name of a struct in the schema.
 */
export type GoType = string;
/** One struct field: JSON name, Go type, and whether the tag says `omitempty`. Order = Go declaration order. */
export type GoField = readonly [json: string, type: GoType, omitempty: boolean];
export type GoSchema = Readonly<Record<string, readonly GoField[]>>;

export const OMITEMPTY = true;
export const ALWAYS = false;

export class GoJsonTypeError extends Error {
  constructor(readonly path: string, expected: GoType, got: unknown) {
    super(`json: cannot unmarshal ${describe(got)} into Go value of type ${expected} at ${path || '<root>'}`);
    this.name = 'GoJsonTypeError';
  }
}

function describe(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  return v === null ? 'null' : typeof v;
}

/**
 * Serialises `value` exactly as Go would after decoding it into `type` (looked up in `schema`) and calling
 * json.Marshal. Fields absent from the Go struct are dropped; `null`/missing become Go zero values; quantities are
 * re-printed in Go's form. Throws GoJsonTypeError where Go's decoder would fail (e.g. a string for an int field).
 */
export function goJson(value: unknown, type: GoType, schema: GoSchema): string {
  return encode(value, type, schema, '');
}

/** `JSON.parse(goJson(...))`: the plain value a Go decode/encode round trip leaves behind. */
export function goNormalize(value: unknown, type: GoType, schema: GoSchema): unknown {
  return JSON.parse(goJson(value, type, schema));
}

function encode(value: unknown, type: GoType, schema: GoSchema, path: string): string {
  const absent = value === undefined || value === null;
  if (type.startsWith('*')) return absent ? 'null' : encode(value, type.slice(1), schema, path);
  if (type.startsWith('[]')) {
    if (absent) return 'null';
    if (!Array.isArray(value)) throw new GoJsonTypeError(path, type, value);
    return `[${value.map((v, i) => encode(v, type.slice(2), schema, `${path}[${i}]`)).join(',')}]`;
  }
  if (type.startsWith('map[string]')) {
    if (absent) return 'null';
    if (typeof value !== 'object' || Array.isArray(value)) throw new GoJsonTypeError(path, type, value);
    const elem = type.slice('map[string]'.length);
    const keys = Object.keys(value).sort(compareBytewise);
    return `{${keys.map((k) => `${goString(k)}:${encode((value as Record<string, unknown>)[k], elem, schema, `${path}[${k}]`)}`).join(',')}}`;
  }
  switch (type) {
    case 'string':
      if (absent) return '""';
      if (typeof value !== 'string') throw new GoJsonTypeError(path, type, value);
      return goString(value);
    case 'bool':
      if (absent) return 'false';
      if (typeof value !== 'boolean') throw new GoJsonTypeError(path, type, value);
      return String(value);
    case 'int32':
    case 'int64':
      if (absent) return '0';
      if (typeof value !== 'number' || !Number.isInteger(value) || !fitsInt(value, type)) throw new GoJsonTypeError(path, type, value);
      return String(value);
    case 'Quantity':
      if (absent) return '"0"';
      if (typeof value !== 'string' && typeof value !== 'number') throw new GoJsonTypeError(path, type, value);
      try {
        return goString(canonicalQuantity(value));
      } catch (err) {
        if (err instanceof QuantityParseError && err.path === undefined) throw new QuantityParseError(err.input, err.message, path);
        throw err;
      }
    case 'Time':
      // metav1.Time: the zero time marshals as null, else RFC 3339 text (kept as written).
      if (absent || value === '') return 'null';
      if (typeof value !== 'string') throw new GoJsonTypeError(path, type, value);
      return goString(value);
    case 'IntOrString':
      if (absent) return '0';
      if (typeof value === 'string') return goString(value);
      if (typeof value === 'number' && Number.isInteger(value) && fitsInt(value, 'int32')) return String(value);
      throw new GoJsonTypeError(path, type, value);
  }
  const fields = schema[type];
  if (!fields) throw new Error(`go-json: type ${type} is not in the schema`);
  if (!absent && (typeof value !== 'object' || Array.isArray(value))) throw new GoJsonTypeError(path, type, value);
  const obj = (absent ? {} : value) as Record<string, unknown>;
  const parts: string[] = [];
  for (const [name, fieldType, omitempty] of fields) {
    const v = Object.hasOwn(obj, name) ? obj[name] : undefined;
    if (omitempty && isEmptyValue(v, fieldType, schema)) continue;
    parts.push(`${goString(name)}:${encode(v, fieldType, schema, `${path}.${name}`)}`);
  }
  return `{${parts.join(',')}}`;
}

/** int64 beyond 2^53 cannot reach us exactly as a JS number anyway; the int32 bound is the one that bites. */
function fitsInt(n: number, type: 'int32' | 'int64'): boolean {
  return type === 'int64' ? Number.isSafeInteger(n) : n >= -2147483648 && n <= 2147483647;
}

/** Go's isEmptyValue after decoding: structs (incl. Quantity, IntOrString) are never empty. */
function isEmptyValue(v: unknown, type: GoType, schema: GoSchema): boolean {
  const absent = v === undefined || v === null;
  if (type.startsWith('*')) return absent;
  if (type.startsWith('[]')) return absent || (Array.isArray(v) && v.length === 0);
  if (type.startsWith('map[string]')) return absent || (typeof v === 'object' && Object.keys(v as object).length === 0);
  switch (type) {
    case 'string':
      return absent || v === '';
    case 'bool':
      return absent || v === false;
    case 'int32':
    case 'int64':
      return absent || v === 0;
  }
  return type in schema || type === 'Quantity' || type === 'IntOrString' || type === 'Time' ? false : absent;
}

/** Go sorts map keys by their UTF-8 bytes; JS `sort()` compares UTF-16 units, which differs above U+FFFF. */
export function compareBytewise(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

const SHORT_ESCAPES: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f' };

/**
 * A JSON string as Go 1.22+ writes it with HTML escaping on: `<`, `>`, `&`, U+2028 and U+2029 as \u escapes, other
 * control characters as \u00XX, \b and \f short-form. A lone surrogate cannot survive Go's decoder, which has already
 * turned it into U+FFFD.
 */
export function goString(s: string): string {
  let out = '"';
  for (const ch of s) {
    const code = ch.codePointAt(0)!;
    if (SHORT_ESCAPES[ch] !== undefined) out += SHORT_ESCAPES[ch];
    else if (code < 0x20 || ch === '<' || ch === '>' || ch === '&' || code === 0x2028 || code === 0x2029) {
      out += `\\u${code.toString(16).padStart(4, '0')}`;
    } else if (code >= 0xd800 && code <= 0xdfff) out += '\ufffd';
    else out += ch;
  }
  return `${out}"`;
}


/**
 * json.Marshal of a value Go decoded into `interface{}`: objects become maps (keys sorted bytewise, at every level),
 * numbers float64 (JS's shortest form equals Go's for every finite double but -0), strings HTML-escaped.
 */
export function goJsonValue(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return goString(value);
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`json: unsupported value: ${value}`);
    return Object.is(value, -0) ? '-0' : String(value);
  }
  if (Array.isArray(value)) return `[${value.map(goJsonValue).join(',')}]`;
  if (typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    const keys = Object.keys(obj).filter((k) => obj[k] !== undefined).sort(compareBytewise);
    return `{${keys.map((k) => `${goString(k)}:${goJsonValue(obj[k])}`).join(',')}}`;
  }
  throw new Error(`json: unsupported type: ${typeof value}`);
}
