// What changed in a SidecarSet since a pod got its sidecars, read from the ControllerRevision the pod's
// `kruise.io/sidecarset-hash` entry names (docs/compatibility.md, in-place sidecar resources). Upstream only knows
// "image only" (equal hash-without-image) or "something else"; the hashes stay upstream's, and the finer answer comes
// from comparing the revision's containers with the SidecarSet's, field by field, in their Go-decoded form.
import type { SidecarContainer, SidecarSet } from '../../shared/api/sidecarset.js';
import { SidecarSetHashAnnotation } from '../../shared/api/sidecarset.js';
import { goJsonValue, goNormalize } from '../../shared/domain/go-json.js';
import { sidecarContainerSchema } from '../../shared/domain/sidecarset-hash.js';
import { isInPlaceNative } from './native-sidecars.js';
import type { Revision } from './revision-history.js';

/** Fields of a sidecar that change in place: the image (upstream) and the resources (pods/resize). */
const IN_PLACE_FIELDS = new Set(['image', 'resources']);

export interface SidecarDiff {
  /** Sidecar containers whose resources differ. */
  resized: string[];
  /** Anything else that differs, as field names (`env`, `command`, `volumeMounts`, `containers` for the list itself). */
  fields: string[];
}

type Normalized = Record<string, unknown>[];

function normalize(containers: unknown): Normalized {
  if (!Array.isArray(containers) || containers.length === 0) return [];
  return goNormalize(containers, '[]SidecarContainer', sidecarContainerSchema) as Normalized;
}

const isNative = (list: readonly SidecarContainer[] | unknown) => Array.isArray(list) && list.some((c) => (c as SidecarContainer)?.restartPolicy === 'Always');

/**
 * Compares two lists of sidecars pairwise into `out`: a different list (length, names) is the field `list`; in a pair
 * that `inPlace` accepts, resources make a resize and other fields (but the image) their field names; any difference
 * in another pair is the field `list`.
 */
function comparePairs(now: Normalized, then: Normalized, list: string, inPlace: (a: SidecarContainer, b: SidecarContainer) => boolean,
  out: { fields: Set<string>; resized: string[] }): void {
  if (now.length !== then.length || now.some((c, i) => c.name !== then[i]!.name)) {
    out.fields.add(list);
    return;
  }
  now.forEach((c, i) => {
    const old = then[i]!;
    if (!inPlace(c as unknown as SidecarContainer, old as unknown as SidecarContainer)) {
      if (goJsonValue(c) !== goJsonValue(old)) out.fields.add(list);
      return;
    }
    for (const key of new Set([...Object.keys(c), ...Object.keys(old)])) {
      if (goJsonValue(c[key]) === goJsonValue(old[key])) continue;
      if (key === 'resources') out.resized.push(String(c.name));
      else if (!IN_PLACE_FIELDS.has(key)) out.fields.add(key);
    }
  });
}

/**
 * The difference between the sidecars a revision recorded (`recorded`, its `data.spec`) and the SidecarSet's. Over
 * what the hash covers: `containers`, and `initContainers` when either side has a native sidecar. Native sidecars
 * (not HotUpgrade) change in place like containers (kruise-ts, native-sidecars.ts); plain init containers ran once at
 * pod start, so any change of theirs is the field `initContainers` (new pods only).
 */
export function diffSidecars(current: SidecarSet['spec'], recorded: SidecarSet['spec']): SidecarDiff {
  const out = { fields: new Set<string>(), resized: [] as string[] };
  comparePairs(normalize(current?.containers), normalize(recorded?.containers), 'containers', () => true, out);
  if (isNative(current?.initContainers) || isNative(recorded?.initContainers)) {
    comparePairs(normalize(current?.initContainers), normalize(recorded?.initContainers), 'initContainers',
      (a, b) => isInPlaceNative(a) && isInPlaceNative(b), out);
  }
  return { resized: out.resized, fields: [...out.fields].sort() };
}

/** The spec a revision stores (`data.spec`), whether the data came back as an object or as JSON text. */
function revisionSpec(r: Revision): SidecarSet['spec'] | undefined {
  let data: unknown = r.data;
  if (typeof data === 'string') {
    try { data = JSON.parse(data); } catch { return undefined; }
  }
  const spec = (data as { spec?: unknown } | undefined)?.spec;
  return spec && typeof spec === 'object' ? spec as SidecarSet['spec'] : undefined;
}

/**
 * A lookup from a pod's hash entry to the diff against `set`, over the SidecarSet's stored revisions. The revision is
 * the one named by the entry when it carries that hash (the webhook records `status.latestRevision`, which can lag),
 * else any revision carrying the hash (every revision copies the SidecarSet's hash annotations). Undefined when no
 * stored revision has the pod's hash: the pod's sidecars are then unknown, and upstream's rule applies.
 */
export function diffLookup(set: SidecarSet, revisions: readonly Revision[]): (entry: { hash: string; controllerRevision?: string }) => SidecarDiff | undefined {
  const byName = new Map(revisions.map((r) => [r.metadata?.name ?? '', r]));
  const byHash = new Map<string, Revision>();
  for (const r of revisions) {
    const h = r.metadata?.annotations?.[SidecarSetHashAnnotation];
    if (h) byHash.set(h, r);
  }
  const memo = new Map<string, SidecarDiff | undefined>();
  return (entry) => {
    if (!entry.hash) return undefined;
    const named = entry.controllerRevision ? byName.get(entry.controllerRevision) : undefined;
    const r = named?.metadata?.annotations?.[SidecarSetHashAnnotation] === entry.hash ? named : byHash.get(entry.hash);
    if (!r) return undefined;
    const key = r.metadata?.name ?? '';
    if (!memo.has(key)) {
      const spec = revisionSpec(r);
      let diff: SidecarDiff | undefined;
      try {
        diff = spec ? diffSidecars(set.spec, spec) : undefined;
      } catch {
        diff = undefined; // revision data Go could not decode: treated as unknown
      }
      memo.set(key, diff);
    }
    return memo.get(key);
  };
}
