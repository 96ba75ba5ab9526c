// Pod annotation value formats written by injection (spec/webhooks.md §2.9), byte-compatible with Go's json.Marshal of
// map[string]sidecarcontrol.SidecarSetUpgradeSpec and map[string]string.
import { AdmissionDeniedError } from '../../errors.js';
import { goString as goStringSlow } from '../go-json.js';

/** Whether Go's encoder writes `s` unchanged between quotes (nothing escaped or replaced): true for hashes and names. */
function isPlain(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x5c || c === 0x3c || c === 0x3e || c === 0x26 || c === 0x2028 || c === 0x2029 || (c >= 0xd800 && c <= 0xdfff)) return false;
  }
  return true;
}
const goString = (s: string) => (isPlain(s) ? `"${s}"` : goStringSlow(s));

/** One entry of `kruise.io/sidecarset-hash` / `…-hash-without-image`. Field order = Go declaration order. */
export interface UpgradeSpec {
  /** RFC 3339 UTC seconds, or null for Go's zero time (legacy entries). */
  updateTimestamp: string | null;
  hash: string;
  sidecarSetName: string;
  sidecarList: string[] | null;
  /** Omitted from the JSON when empty. */
  controllerRevision?: string;
  /**
   * The JSON after updateTimestamp (hash through controllerRevision, closing brace), when already rendered: a
   * SidecarSet's own entry is the same for every pod but the timestamp. Only withTail sets it, from these fields.
   */
  readonly tail?: string;
}

export type UpgradeSpecMap = Map<string, UpgradeSpec>;

/**
 * Go sorts map keys by UTF-8 bytes. Below U+D800 UTF-16 code units order like UTF-8 bytes, so the common case compares
 * units directly; surrogates (and the lone ones Buffer turns into U+FFFD) take the exact byte comparison.
 */
export function byteOrder(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    if (x < 0xd800 && y < 0xd800) return x < y ? -1 : 1;
    return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
  }
  if (a.length === b.length) return 0;
  if (n > 0 && a.charCodeAt(n - 1) >= 0xd800) return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
  return a.length < b.length ? -1 : 1;
}

/** metav1.Time as JSON: RFC 3339 in UTC with whole seconds. */
export function formatTimestamp(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** time.Parse(RFC3339) then re-format in UTC (fractions dropped, offsets folded in); undefined if Go would fail. */
function normalizeTimestamp(s: string): string | undefined {
  const m = RFC3339.exec(s);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, sec, , zone] = m;
  let ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(sec));
  if (zone !== 'Z') ms -= (zone!.startsWith('-') ? -1 : 1) * (Number(zone!.slice(1, 3)) * 60 + Number(zone!.slice(4, 6))) * 60_000;
  return Number.isNaN(ms) ? undefined : formatTimestamp(new Date(ms));
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const optString = (v: unknown) => v === undefined || v === null || typeof v === 'string';

/** Decodes one entry as Go would into SidecarSetUpgradeSpec (unknown fields ignored), or undefined on a type error. */
function decodeSpec(v: unknown): UpgradeSpec | undefined {
  if (v === null) return { updateTimestamp: null, hash: '', sidecarSetName: '', sidecarList: null };
  if (!isObject(v)) return undefined;
  const { updateTimestamp: ts, hash, sidecarSetName, sidecarList, controllerRevision } = v;
  if (!optString(hash) || !optString(sidecarSetName) || !optString(controllerRevision) || !optString(ts)) return undefined;
  if (!(sidecarList === undefined || sidecarList === null || (Array.isArray(sidecarList) && sidecarList.every((s) => s === null || typeof s === 'string')))) {
    return undefined;
  }
  const updateTimestamp = typeof ts === 'string' ? normalizeTimestamp(ts) : null;
  if (updateTimestamp === undefined) return undefined;
  const spec: UpgradeSpec = {
    updateTimestamp,
    hash: (hash as string | null) ?? '',
    sidecarSetName: (sidecarSetName as string | null) ?? '',
    sidecarList: Array.isArray(sidecarList) ? sidecarList.map((s) => (s as string | null) ?? '') : null,
  };
  if (controllerRevision) spec.controllerRevision = controllerRevision as string;
  return spec;
}

/**
 * Parses an existing hash annotation: first as the current struct map, then as the legacy `map[string]string`
 * (name → hash, converted to `{hash, sidecarSetName: name}` with zero time and nil list). An absent or empty value is
 * an empty map. Anything else is refused, as upstream does, because overwriting it would lose upgrade bookkeeping.
 */
export function parseUpgradeSpecMap(raw: string | undefined, annotation: string, podRef: string): UpgradeSpecMap {
  const out: UpgradeSpecMap = new Map();
  if (!raw) return out;
  const fail = (why: string) =>
    new AdmissionDeniedError(
      `pod(${podRef}) invalid annotations[${annotation}] value ${raw}, unmarshal failed: ${why}; ` +
        'remove the annotation or give it the {"<sidecarset>":{"hash":...,"sidecarSetName":...}} form',
      400,
    );
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (err) {
    throw fail((err as Error).message);
  }
  if (parsed === null) return out;
  if (!isObject(parsed)) throw fail('not a JSON object');
  const entries = Object.entries(parsed);
  const decoded = entries.map(([k, v]) => [k, decodeSpec(v)] as const);
  if (decoded.every(([, s]) => s !== undefined)) {
    for (const [k, s] of decoded) out.set(k, s!);
    return out;
  }
  if (entries.every(([, v]) => v === null || typeof v === 'string')) {
    for (const [k, v] of entries) out.set(k, { updateTimestamp: null, hash: (v as string | null) ?? '', sidecarSetName: k, sidecarList: null });
    return out;
  }
  throw fail('values are neither SidecarSetUpgradeSpec objects nor strings');
}

function specTail(s: UpgradeSpec): string {
  const list = s.sidecarList === null ? 'null' : `[${s.sidecarList.map(goString).join(',')}]`;
  const rev = s.controllerRevision ? `,"controllerRevision":${goString(s.controllerRevision)}` : '';
  return `,"hash":${goString(s.hash)},"sidecarSetName":${goString(s.sidecarSetName)},"sidecarList":${list}${rev}}`;
}

function specJson(s: UpgradeSpec): string {
  const ts = s.updateTimestamp === null ? 'null' : goString(s.updateTimestamp);
  return `{"updateTimestamp":${ts}${s.tail ?? specTail(s)}`;
}

/** `spec` with its JSON after the timestamp rendered once, for entries reused with a new timestamp per pod. */
export function withTail(spec: UpgradeSpec): UpgradeSpec {
  const { tail: _, ...fields } = spec;
  return { ...fields, tail: specTail(fields) };
}

/** Go-JSON of the map: keys sorted, entries in struct field order, compact. */
export function formatUpgradeSpecMap(m: UpgradeSpecMap): string {
  const keys = [...m.keys()].sort(byteOrder);
  return `{${keys.map((k) => `${goString(k)}:${specJson(m.get(k)!)}`).join(',')}}`;
}

/** `kruise.io/sidecarset-working-hotupgrade-container` as upstream reads it: invalid or absent → {}. */
export function parseStringMap(raw: string | undefined): Record<string, string> {
  if (!raw) return {};
  try {
    const v: unknown = JSON.parse(raw);
    if (!isObject(v) || !Object.values(v).every((x) => typeof x === 'string' || x === null)) return {};
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, (x as string | null) ?? '']));
  } catch {
    return {};
  }
}

export function formatStringMap(m: Record<string, string>): string {
  const keys = Object.keys(m).sort(byteOrder);
  return `{${keys.map((k) => `${goString(k)}:${goString(m[k]!)}`).join(',')}}`;
}
