// SidecarSet validation Phase B (spec/webhooks.md §3, §3.1): names, volumes and annotation patches must not collide
// with another SidecarSet that can select the same pods. The overlap tests reproduce upstream exactly, quirks included:
// they are heuristics over selector *syntax*, not set intersection.
import { canaryBaseOf } from '../sidecarset-canary.js';
import type { LabelSelector, Volume } from '../../api/meta.js';
import type { SidecarSet } from '../../api/sidecarset.js';
import type { Violation } from '../../errors.js';
import { LabelSelectorError, matchesLabelSelector } from '../label-selector.js';

export type NamespaceLabels = (name: string) => Record<string, string> | undefined;

/** util.IsSelectorOverlapping: neither side is provably disjoint from the other. */
export function isSelectorOverlapping(s1: LabelSelector | undefined, s2: LabelSelector | undefined): boolean {
  return !(isDisjoint(s1, s2) || isDisjoint(s2, s1));
}

const ALL = 'ALL';

/** Whether every member of `set` is among `values`: counted over `values`, so NotIn costs its own length only. */
function coversAll(values: readonly string[], set: ReadonlySet<string>): boolean {
  const found = new Set<string>();
  for (const v of values) if (set.has(v)) found.add(v);
  return found.size === set.size;
}

// Linear in both selectors: the values of `a` are gathered per key into Sets (upstream appends to slices and scans
// them, which is (terms of a) × (terms of b), and quadratic in a selector repeating one key).
function isDisjoint(a: LabelSelector | undefined, b: LabelSelector | undefined): boolean {
  const values = new Map<string, Set<string>>();
  const add = (k: string, vs: readonly string[]): void => {
    let set = values.get(k);
    if (!set) values.set(k, (set = new Set()));
    for (const v of vs) set.add(v);
  };
  for (const [k, v] of Object.entries(a?.matchLabels ?? {})) add(k, [v]);
  for (const req of a?.matchExpressions ?? []) {
    if (req.operator === 'In') add(req.key, req.values ?? []);
    else if (req.operator === 'Exists') add(req.key, [ALL]);
  }
  for (const [k, v] of Object.entries(b?.matchLabels ?? {})) {
    const vs = values.get(k);
    if (vs && !vs.has(ALL) && !vs.has(v)) return true;
  }
  for (const req of b?.matchExpressions ?? []) {
    const vs = values.get(req.key);
    const reqValues = req.values ?? [];
    switch (req.operator) {
      case 'In':
        if (vs && !vs.has(ALL) && !reqValues.some((v) => vs.has(v))) return true;
        break;
      case 'NotIn':
        if (vs && coversAll(reqValues, vs)) return true;
        break;
      case 'Exists':
        if (!vs) return true;
        break;
      case 'DoesNotExist':
        if (vs) return true;
        break;
    }
  }
  return false;
}

/**
 * An already-stored SidecarSet may carry a selector Kubernetes could not build (it predates validation, or was
 * written around the webhook); like a failed LabelSelectorAsSelector upstream, that selector matches no namespace,
 * so it raises no conflict instead of failing the admission of an unrelated SidecarSet.
 */
function namespaceSelectorMatches(selector: LabelSelector, labels: Record<string, string>): boolean {
  try {
    return matchesLabelSelector(selector, labels);
  } catch (err) {
    if (err instanceof LabelSelectorError) return false;
    throw err;
  }
}

/** Whether origin (the object being admitted) and other can both apply to some namespace. */
export function isNamespaceOverlapping(origin: SidecarSet, other: SidecarSet, namespaceLabels: NamespaceLabels): boolean {
  const o = origin.spec ?? {};
  const t = other.spec ?? {};
  if (o.namespace && t.namespace && o.namespace !== t.namespace) return false;
  if (o.namespaceSelector && t.namespaceSelector && !isSelectorOverlapping(o.namespaceSelector, t.namespaceSelector)) return false;
  if (o.namespace && t.namespaceSelector) {
    const labels = namespaceLabels(o.namespace);
    if (!labels || !namespaceSelectorMatches(t.namespaceSelector, labels)) return false;
  }
  // Upstream evaluates this pair against the *other* SidecarSet's namespaceSelector, which is nil here, so such
  // pairs are never conflict-checked. Reproduced on purpose (spec/webhooks.md §3.1 rule 4).
  if (t.namespace && o.namespaceSelector) return false;
  return true;
}

export function validateSidecarSetConflicts(obj: SidecarSet, all: readonly SidecarSet[], namespaceLabels: NamespaceLabels): Violation[] {
  const name = obj.metadata?.name;
  // A canary is meant to carry its base's containers: the base is not a conflict (HEAD).
  const base = canaryBaseOf(obj);
  const others = all.filter(
    (s) => s.metadata?.name !== name && s.metadata?.name !== base && isNamespaceOverlapping(obj, s, namespaceLabels) && isSelectorOverlapping(obj.spec?.selector, s.spec?.selector),
  );
  // Later SidecarSets overwrite earlier ones in each index, as upstream's maps do; the message names the last.
  const initIn = new Map<string, SidecarSet>();
  const containerIn = new Map<string, SidecarSet>();
  // A volume's owner is the last SidecarSet naming it; the volume compared is that set's first of the name (upstream
  // looks it up in the set by name). Kept here rather than searched per volume of the object.
  const volumeIn = new Map<string, { set: SidecarSet; volume: Volume }>();
  const annotationIn = new Map<string, { set: SidecarSet; policy: string }>();
  for (const s of others) {
    for (const c of s.spec?.initContainers ?? []) initIn.set(c.name, s);
    for (const c of s.spec?.containers ?? []) containerIn.set(c.name, s);
    for (const v of s.spec?.volumes ?? []) if (volumeIn.get(v.name)?.set !== s) volumeIn.set(v.name, { set: s, volume: v });
    for (const p of s.spec?.patchPodMetadata ?? []) {
      if (!p.patchPolicy || p.patchPolicy === 'Retain') continue;
      for (const k of Object.keys(p.annotations ?? {})) annotationIn.set(k, { set: s, policy: p.patchPolicy });
    }
  }
  const out: Violation[] = [];
  const exists = (n: string, other: SidecarSet): Violation => ({
    field: 'spec.containers',
    type: 'Invalid value',
    value: n,
    detail: `container ${n} already exist in ${other.metadata?.name}`,
  });
  for (const c of obj.spec?.initContainers ?? []) {
    const other = initIn.get(c.name);
    if (other) out.push(exists(c.name, other));
  }
  for (const c of obj.spec?.containers ?? []) {
    const other = containerIn.get(c.name);
    if (other) out.push(exists(c.name, other));
  }
  for (const v of obj.spec?.volumes ?? []) {
    const other = volumeIn.get(v.name);
    if (other && !deepEqual(v, other.volume)) {
      out.push({ field: 'spec.volumes', type: 'Invalid value', value: v.name, detail: `volume ${v.name} is in conflict with sidecarset ${other.set.metadata?.name}` });
    }
  }
  for (const p of obj.spec?.patchPodMetadata ?? []) {
    if (!p.patchPolicy || p.patchPolicy === 'Retain') continue;
    for (const k of Object.keys(p.annotations ?? {}).sort()) {
      const theirs = annotationIn.get(k);
      if (theirs && (p.patchPolicy === 'Overwrite' || theirs.policy === 'Overwrite')) {
        out.push({ field: 'spec.patchPodMetadata', type: 'Invalid value', value: k, detail: `annotation ${k} is in conflict with sidecarset ${theirs.set.metadata?.name}` });
      }
    }
  }
  return out;
}

/** Structural equality where an absent key equals an undefined one (Go DeepEqual on decoded structs). */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((x, i) => deepEqual(x, bb[i]));
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const keys = new Set([...Object.keys(ao), ...Object.keys(bo)]);
  for (const k of keys) if (!deepEqual(ao[k], bo[k])) return false;
  return true;
}
